// RUN: rm -f %t.pir
// RUN: not pir-opt %s --split-input-file -o %t.pir
// RUN: not test -e %t.pir
// RUN: pir-opt %s --split-input-file -o %t.pir --verify-diagnostics
// RUN: not test -e %t.pir
// With -o FILE the file is all or nothing: written only when every chunk
// succeeded (even when --verify-diagnostics expected the failure).
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
}
// -----
{
    (%1) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32> // expected-error {{undefined value '%0'}}
}
