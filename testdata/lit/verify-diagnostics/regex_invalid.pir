// RUN: not pir-opt %s --verify-diagnostics 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not="Error parsing"
// A regex RE2 refuses, or a '{{' with no '}}' after it, is an error at that
// '{{', with RE2's message; the expectation is dropped, so its diagnostic is
// unexpected.

// CHECK:      regex_invalid.pir:[[@LINE+11]]:39: error: invalid regex in expected-error-re: missing ]: [0-9
// CHECK-NEXT: {{^    // expected-.*'%[{][{]\[0-9[}][}]'[}][}]$}}
// CHECK-NEXT: {{^                                      \^$}}
// CHECK:      regex_invalid.pir:[[@LINE+9]]:26: error: unexpected error: undefined value '%9'
// CHECK:      regex_invalid.pir:[[@LINE+9]]:37: error: invalid regex in expected-error-re: missing ): (a
// CHECK:      regex_invalid.pir:[[@LINE+9]]:26: error: unexpected error: undefined value '%8'
// CHECK:      regex_invalid.pir:[[@LINE+9]]:36: error: unclosed '{{[{][{]}}' in expected-note-re (a regex runs to the next '{{[}][}]}}')
// CHECK:      regex_invalid.pir:[[@LINE+9]]:26: error: unexpected error: undefined value '%7'
// CHECK:      regex_invalid.pir:[[@LINE+9]]:31: error: invalid regex in expected-error-re: bad repetition operator: **
// CHECK:      regex_invalid.pir:[[@LINE+9]]:26: error: unexpected error: undefined value '%6'
{
    // expected-error-re@+1 {{value '%{{[0-9}}'}}
    (%1) = "pd_op.relu" (%9) {} : (tensor<4xf32>) -> tensor<4xf32>
    // expected-error-re@+1 {{value {{(a}}}}
    (%2) = "pd_op.relu" (%8) {} : (tensor<4xf32>) -> tensor<4xf32>
    // expected-note-re@+1 {{value {{oops}}
    (%3) = "pd_op.relu" (%7) {} : (tensor<4xf32>) -> tensor<4xf32>
    // expected-error-re@+1 {{{{a**}}}}
    (%4) = "pd_op.relu" (%6) {} : (tensor<4xf32>) -> tensor<4xf32>
}
