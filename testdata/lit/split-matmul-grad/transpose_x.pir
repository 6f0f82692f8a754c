// RUN: pir-opt %s --pass-pipeline=split-matmul-grad | FileCheck %s
// pd_op.matmul_grad becomes two matmuls; with transpose_x (tagged
// `(Bool)true`): x_grad = matmul(y, og) and y_grad = matmul(x, og).

// CHECK:      ([[X:%[0-9]+]]) = "pd_op.data" {{.*}}name:"x"
// CHECK-NEXT: ([[W:%[0-9]+]]) = "pd_op.data" {{.*}}name:"w"
// CHECK-NEXT: ([[OG:%[0-9]+]]) = "pd_op.data" {{.*}}name:"og"
// CHECK-NEXT: ([[DX:%[0-9]+]]) = "pd_op.matmul" ([[W]], [[OG]]) {{.*}}transpose_x:false,transpose_y:true
// CHECK-NEXT: ([[DY:%[0-9]+]]) = "pd_op.matmul" ([[X]], [[OG]]) {{.*}}transpose_x:false,transpose_y:false
// CHECK-NOT:  matmul_grad
// CHECK:      "builtin.shadow_output" ([[DX]])
// CHECK-NEXT: "builtin.shadow_output" ([[DY]])

{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,8],stop_gradient:[false]} : () -> builtin.tensor<8x8xf32>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"w",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,8],stop_gradient:[false]} : () -> builtin.tensor<8x8xf32>
    (%2) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"og",op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,8],stop_gradient:[false]} : () -> builtin.tensor<8x8xf32>
    (%3, %4) = "pd_op.matmul_grad" (%0, %1, %2) {op_role:(Int32)1,stop_gradient:[false,false],transpose_x:(Bool)true,transpose_y:false} : (builtin.tensor<8x8xf32>, builtin.tensor<8x8xf32>, builtin.tensor<8x8xf32>) -> builtin.tensor<8x8xf32>, builtin.tensor<8x8xf32>
    () = "builtin.shadow_output" (%3) {op_role:(Int32)1,output_name:"dx"} : (builtin.tensor<8x8xf32>) -> 
    () = "builtin.shadow_output" (%4) {op_role:(Int32)1,output_name:"dy"} : (builtin.tensor<8x8xf32>) -> 
}
