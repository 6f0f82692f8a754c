// RUN: pir-opt %s --verify-diagnostics --split-input-file
// @+N, @-N, @above and @below name the diagnostic's line relative to the
// comment (@above: the last line above with no expectation, @below: the
// next one), chunk by chunk under --split-input-file.
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
    // expected-error@+1 {{undefined value '%9'}}
    (%1) = "pd_op.relu" (%9) {} : (tensor<4xf32>) -> tensor<4xf32>
}
// -----
{
    (%1) = "pd_op.relu" (%8) {} : (tensor<4xf32>) -> tensor<4xf32>
    // expected-error@-1 {{undefined value '%8'}}
}
// -----
{
    (%1) = "pd_op.relu" (%7) {} : (tensor<4xf32>) -> tensor<4xf32>
    // expected-error@above {{undefined value '%7'}}
}
// -----
{
    // expected-error@below {{undefined value '%6'}}
    // expected-error@below {{undefined value '%5'}}
    (%1) = "pd_op.add" (%6, %5) {} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
}
