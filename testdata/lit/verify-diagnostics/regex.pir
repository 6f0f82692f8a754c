// RUN: pir-opt %s --verify-diagnostics --split-input-file --no-verify
// expected-error-re, -warning-re and -note-re, as clang's -verify has them:
// each {{...}} inside the text is an RE2 regex and the rest is literal (the
// parentheses and the dot below are); the whole matches a substring of the
// message. The designators are the plain form's. (--no-verify makes a type
// mismatch a warning.)
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {} : (tensor<4xf16>) -> tensor<4xf16>  // expected-warning-re {{operand {{[0-9]+}} ('%{{[0-9]}}') does not match its definition: defined as '{{[^']+}}'}}
}
// -----
{
    // expected-error-re@+1 {{undefined value '%{{8|9}}'}}
    (%1) = "pd_op.relu" (%9) {} : (tensor<4xf32>) -> tensor<4xf32>
}
// -----
{
    (%1) = "pd_op.relu" (%8) {} : (tensor<4xf32>) -> tensor<4xf32>
    // expected-error-re@-1 {{{{^}}undefined value '%{{[[:digit:]]}}'{{$}}}}
}
// -----
{
    (%1) = "pd_op.relu" (%7) {} : (tensor<4xf32>) -> tensor<4xf32>
    // expected-error-re@above {{value '%{{\d}}'}}
}
// -----
{
    // expected-error-re@below {{undefined value '%{{6}}'}}
    // expected-error-re@below {{'%{{.}}'}}
    (%1) = "pd_op.add" (%6, %5) {} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
}
// -----
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32> // expected-note-re {{previously {{defined|declared}} here}}
    (%0) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32> // expected-error-re {{redefinition of value '%0'}}
}
