// RUN: pir-opt %s --pass-pipeline='pipeline-split{mode=1F1B}' | FileCheck %s --check-prefix=ONEF
// RUN: pir-opt %s --pass-pipeline='pipeline-split{mode=ZBH1}' | FileCheck %s --check-prefix=ZB
// 1F1B makes the same three jobs as FThenB; ZBH1 splits the backward into
// backward_b and backward_w.

// ONEF:     job: forward
// ONEF:     job: backward
// ONEF-NOT: job: backward_w
// ONEF:     job: optimizer

// ZB: job: forward
// ZB: job: backward_b
// ZB: job: backward_w
// ZB: job: optimizer

{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[false]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    () = "builtin.shadow_output" (%1) {op_role:(Int32)0,output_name:"out"} : (builtin.tensor<4xf32>) -> 
    (%2) = "pd_op.exp" (%1) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    () = "builtin.shadow_output" (%2) {op_role:(Int32)0,output_name:"out"} : (builtin.tensor<4xf32>) -> 
    (%3) = "pd_op.scale" (%1) {bias:(Float)0,bias_after_scale:true,op_role:(Int32)1,scale:(Float)2,stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    () = "builtin.shadow_output" (%3) {op_role:(Int32)1,output_name:"g"} : (builtin.tensor<4xf32>) -> 
}
