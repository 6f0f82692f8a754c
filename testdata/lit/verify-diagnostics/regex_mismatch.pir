// RUN: not pir-opt %s --verify-diagnostics 2>&1 | FileCheck %s --implicit-check-not=error:
// An -re expectation its diagnostic does not match is reported like a plain
// one, and so is the diagnostic, as unexpected. Outside {{ }} the text is
// literal: the '.' below is no wildcard.

// CHECK: regex_mismatch.pir:[[@LINE+7]]:26: error: unexpected error: undefined value '%9'
// CHECK: regex_mismatch.pir:[[@LINE+6]]:72: error: expected error "undefined value '%{{[{][{]\[a-z\][}][}]}}'" was not produced
// CHECK: regex_mismatch.pir:[[@LINE+6]]:26: error: unexpected error: undefined value '%8'
// CHECK: regex_mismatch.pir:[[@LINE+5]]:72: error: expected error "undefined.value '%{{[{][{]\[0-9\][}][}]}}'" was not produced
// CHECK: regex_mismatch.pir:[[@LINE+5]]:26: error: unexpected error: undefined value '%7'
// CHECK: regex_mismatch.pir:[[@LINE+4]]:72: error: expected warning "undefined value '%{{[{][{]7[}][}]}}'" was not produced
{
    (%1) = "pd_op.relu" (%9) {} : (tensor<4xf32>) -> tensor<4xf32>  // expected-error-re {{undefined value '%{{[a-z]}}'}}
    (%2) = "pd_op.relu" (%8) {} : (tensor<4xf32>) -> tensor<4xf32>  // expected-error-re {{undefined.value '%{{[0-9]}}'}}
    (%3) = "pd_op.relu" (%7) {} : (tensor<4xf32>) -> tensor<4xf32>  // expected-warning-re {{undefined value '%{{7}}'}}
}
