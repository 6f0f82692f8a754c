// RUN: not pir-opt %s --pass-pipeline=test-internal-error 2>&1 | FileCheck %s
// RUN: sh -c 'pir-opt "$0" --pass-pipeline=test-internal-error; test $? -eq 2' %s
// A pass that breaks the IR is pir-opt's bug: exit code 2, not 1.

// CHECK: internal error: {{.*}}test-internal-error{{.*}}(a bug in pir-opt, not in the input)
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>
}
