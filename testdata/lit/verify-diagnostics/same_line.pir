// RUN: pir-opt %s --verify-diagnostics
// An expected-error on the diagnostic's own line; its text is a substring.
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%9) {} : (tensor<4xf32>) -> tensor<4xf32>  // expected-error {{undefined value '%9'}}
}
