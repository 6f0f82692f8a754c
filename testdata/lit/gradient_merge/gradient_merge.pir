// RUN: pir-opt %s '--pass-pipeline=gradient-merge{k=4 avg=true}' | FileCheck %s
// RUN: pir-opt %s '--pass-pipeline=gradient-merge{k=2 avg=false}' | FileCheck %s --check-prefix=SUM
// RUN: pir-opt %s '--pass-pipeline=gradient-merge{k=2},pipeline-split{mode=FThenB}' | FileCheck %s --check-prefix=JOBS
// RUN: pir-opt %s '--pass-pipeline=gradient-merge{k=2}' --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// The buffer is a persistable kwarg; add_ accumulates after matmul_grad, the
// optimizer reads it scaled by 1/k, and it is zeroed at the end.

// CHECK:      ^kw:
// CHECK-NEXT:   %kwarg_w@GRAD@MERGE {persistable:true}
// CHECK:      (%[[G:[0-9]+]], %[[WG:[0-9]+]]) = "pd_op.matmul_grad"
// CHECK-NEXT: "pd_op.add_" (%kwarg_w@GRAD@MERGE, %[[WG]]) {grad_merge_add:true,op_role:(Int32)1,
// CHECK:      (%[[K:[0-9]+]]) = "pd_op.full" () {{.*}}op_role:(Int32)2,{{.*}}value:(Float)0.25}
// CHECK-NEXT: (%[[S:[0-9]+]]) = "pd_op.scale_" (%kwarg_w@GRAD@MERGE, %[[K]]) {bias:(Float)0,bias_after_scale:false,op_role:(Int32)2,
// CHECK-NEXT: "pd_op.sgd_" (%1, %{{[0-9]+}}, %[[S]], <<NULL VALUE>>)
// CHECK:      "pd_op.set_value_with_tensor_" (%kwarg_w@GRAD@MERGE, {{.*}}) {axes:[],decrease_axes:[],none_axes:[],op_role:(Int32)2,
// CHECK-NEXT: {{^}}}{{$}}

// SUM-NOT:  pd_op.scale_
// SUM:      "pd_op.sgd_" (%1, %{{[0-9]+}}, %kwarg_w@GRAD@MERGE, <<NULL VALUE>>)

// JOBS:      // ----- job: backward
// JOBS:      "pd_op.add_" (%kwarg_w@GRAD@MERGE,
// JOBS:      // ----- job: optimizer
// JOBS:      %kwarg_w@GRAD@MERGE {persistable:true}
// JOBS:      "pd_op.scale_" (%kwarg_w@GRAD@MERGE,
// JOBS:      "pd_op.set_value_with_tensor_" (%kwarg_w@GRAD@MERGE,

// STATS:      gradient-merge
// STATS-NEXT:   (S) 1 trainable parameter without an optimizer op, not merged
// STATS-NEXT:   (S) 1 merge buffer added
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,3],stop_gradient:[true]} : () -> builtin.tensor<4x3xf32>
    (%1) = "builtin.parameter" () {op_role:(Int32)0,parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<3x2xf32>
    (%12) = "builtin.parameter" () {op_role:(Int32)0,parameter_name:"unused",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<3x2xf32>
    (%2) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"learning_rate",op_role:(Int32)0,persistable:[true],place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[],stop_gradient:[true]} : () -> builtin.tensor<f32>
    (%3) = "pd_op.matmul" (%0, %1) {op_role:(Int32)0,stop_gradient:[false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x3xf32>, builtin.tensor<3x2xf32>) -> builtin.tensor<4x2xf32>
    (%4) = "pd_op.mean" (%3) {axis:(pd_op.IntArray)[],keepdim:false,op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4x2xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%4) {op_role:(Int32)0,output_name:"loss"} : (builtin.tensor<f32>) -> 
    (%5) = "pd_op.full" () {dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xf32>
    (%6) = "pd_op.full_like" (%4, %5) {dtype:(pd_op.DataType)float32,op_role:(Int32)1,place:(pd_op.Place)Place(undefined:0),stop_gradient:[false]} : (builtin.tensor<f32>, builtin.tensor<1xf32>) -> builtin.tensor<f32>
    (%7) = "pd_op.mean_grad" (%3, %6) {axis:(pd_op.IntArray)[],keepdim:false,op_role:(Int32)1,reduce_all:false,stop_gradient:[false]} : (builtin.tensor<4x2xf32>, builtin.tensor<f32>) -> builtin.tensor<4x2xf32>
    (%8, %9) = "pd_op.matmul_grad" (%0, %1, %7) {op_role:(Int32)1,stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (builtin.tensor<4x3xf32>, builtin.tensor<3x2xf32>, builtin.tensor<4x2xf32>) -> builtin.tensor<4x3xf32>, builtin.tensor<3x2xf32>
    (%10, %11) = "pd_op.sgd_" (%1, %2, %9, <<NULL VALUE>>) {multi_precision:false,op_role:(Int32)2,stop_gradient:[false,false]} : (builtin.tensor<3x2xf32>, builtin.tensor<f32>, builtin.tensor<3x2xf32>, <<NULL TYPE>>) -> builtin.tensor<3x2xf32>, <<NULL TYPE>>
}
