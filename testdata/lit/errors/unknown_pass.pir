// RUN: not pir-opt %s --pass-pipeline=fold-reshard,no-such-pass 2>&1 | FileCheck %s
// RUN: not pir-opt %s --print-ir-after=no-such-pass 2>&1 | FileCheck %s --check-prefix=PRINT
// An unknown pass is refused, with the names of the known ones.

// CHECK:      <pass-pipeline>:1:14: error: unknown pass 'no-such-pass'; known passes: apply-partition,
// CHECK-NEXT: fold-reshard,no-such-pass
// CHECK-NEXT: {{^             \^$}}
// PRINT: error: --print-ir-before/after names unknown pass 'no-such-pass'
{
}
