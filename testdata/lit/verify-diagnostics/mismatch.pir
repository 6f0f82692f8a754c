// RUN: not pir-opt %s --verify-diagnostics 2>&1 | FileCheck %s
// An expectation no diagnostic met, and a diagnostic nobody expected, are
// each reported where they stand; the run fails.

// CHECK:      mismatch.pir:[[@LINE+7]]:26: error: unexpected error: undefined value '%9'
// CHECK:      mismatch.pir:[[@LINE+7]]:72: error: expected error "no such message" was not produced
// CHECK:      mismatch.pir:[[@LINE+7]]:8: error: expected warning "a warning" was not produced
// CHECK:      mismatch.pir:[[@LINE+7]]:8: error: expected '{{.*}}' after 'expected-error'
// CHECK-NOT:  error:
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%9) {} : (tensor<4xf32>) -> tensor<4xf32>
    (%2) = "pd_op.relu" (%0) {} : (tensor<4xf32>) -> tensor<4xf32>  // expected-error {{no such message}}
    // expected-warning@-1 {{a warning}}
    // expected-error {{unclosed
}
