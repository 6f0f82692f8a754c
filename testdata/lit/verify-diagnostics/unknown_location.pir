// RUN: not pir-opt %s --verify-diagnostics 2>&1 | FileCheck %s
// @unknown expects a diagnostic without a location; unmet, it is reported
// at the comment like any other expectation.

// CHECK: unknown_location.pir:[[@LINE+3]]:4: error: expected error "no location" was not produced
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
// expected-error@unknown {{no location}}
}
