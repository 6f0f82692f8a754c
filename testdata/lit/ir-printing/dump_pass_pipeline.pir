// RUN: pir-opt %s --pass-pipeline='fold-reshard,pipeline-split{mode=VPP vpp=2},apply-partition' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s
// RUN: pir-opt %s --pass-pipeline='fold-reshard,pipeline-split{mode=VPP vpp=2 split-bw=false},apply-partition{share=false}' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s
// RUN: pir-opt %s --config %inputs/pipeline.yaml --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=YAML
// --dump-pass-pipeline prints the pipeline with every option's value, in
// the --pass-pipeline syntax (so the second RUN line, which reads the first
// one's dump, prints it again).

// CHECK:      {{^}}fold-reshard,pipeline-split{mode=VPP vpp=2 split-bw=false},apply-partition{share=false}{{$}}
// YAML:       {{^}}apply-partition{share=true},fold-reshard{{$}}
{
}
