// RUN: pir-opt %s --verify-diagnostics
// A note is expected where it points, with expected-note.
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32> // expected-note {{previously defined here}}
    (%0) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32> // expected-error {{redefinition of value '%0'}}
}
