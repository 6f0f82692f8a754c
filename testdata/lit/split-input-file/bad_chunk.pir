// RUN: not pir-opt %s --split-input-file --pass-pipeline=fold-reshard 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// A chunk that fails (here: syntax in the second, the verifier in the
// third) reports its diagnostics and prints nothing; the others print,
// each after its marker line. The exit code is 1.

// CHECK-LABEL: {
// CHECK-NEXT:      "pd_op.data" () {{.*}}name:"first"
// CHECK-NEXT:      "pd_op.relu" (%0)
// CHECK-NEXT:  {{^}$}}
// CHECK-NEXT:  // ----- job: last
// CHECK-NEXT:  {
// CHECK-NEXT:      "pd_op.data" () {{.*}}name:"last"
// CHECK-NOT:   second
// CHECK-NOT:   third

// ERR:     bad_chunk.pir:[[@LINE+11]]:26: error: unexpected character '@'
// ERR:     bad_chunk.pir:[[@LINE+15]]:26: error: undefined value '%5'
// ERR-NOT: error:
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"first",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "dist_op.reshard" (%0) {} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%2) = "pd_op.relu" (%1) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
// -----
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"second",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "pd_op.relu" (@0) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
// -----
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"third",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "pd_op.relu" (%5) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
// ----- job: last
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"last",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
}
