// RUN: pir-opt %s --pass-pipeline='pipeline-split{mode=FThenB}' | FileCheck %s
// FThenB splits a stage's program into forward, backward and optimizer
// jobs; a value the backward reads crosses by a shadow_output in forward
// and a kwarg in backward (named var_1_pd_op.relu_0: "out" names another).

// CHECK-LABEL: // ----- job: forward
// CHECK:       ([[R:%[0-9]+]]) = "pd_op.relu"
// CHECK-NEXT:  "builtin.shadow_output" ([[R]]) {{.*}}output_name:"var_1_pd_op.relu_0"
// CHECK-LABEL: // ----- job: backward
// CHECK-NEXT:  {
// CHECK-NEXT:      ^kw:
// CHECK-NEXT:          %kwarg_var_1_pd_op.relu_0 {}
// CHECK-NEXT:      ([[S:%[0-9]+]]) = "pd_op.scale" (%kwarg_var_1_pd_op.relu_0)
// CHECK-NEXT:      "builtin.shadow_output" ([[S]]) {{.*}}output_name:"g"
// CHECK-LABEL: // ----- job: optimizer
// CHECK-NEXT:  {
// CHECK-NEXT:  }

{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[false]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    () = "builtin.shadow_output" (%1) {op_role:(Int32)0,output_name:"out"} : (builtin.tensor<4xf32>) -> 
    (%2) = "pd_op.exp" (%1) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    () = "builtin.shadow_output" (%2) {op_role:(Int32)0,output_name:"out"} : (builtin.tensor<4xf32>) -> 
    (%3) = "pd_op.scale" (%1) {bias:(Float)0,bias_after_scale:true,op_role:(Int32)1,scale:(Float)2,stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    () = "builtin.shadow_output" (%3) {op_role:(Int32)1,output_name:"g"} : (builtin.tensor<4xf32>) -> 
}
