// RUN: pir-opt %s --pass-pipeline=pipeline-split{mode=FThenB}
// RULE: a value's only shadow_output sits in a pd_op.if branch, which may not run: the value crosses under a new name with its own shadow_output
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[false]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)bool,name:"flag",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1],stop_gradient:[true]} : () -> builtin.tensor<1xb>
    (%2) = "pd_op.relu" (%0) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    () = "pd_op.if" (%1) {op_role:(Int32)0} -> {
        () = "builtin.shadow_output" (%2) {op_role:(Int32)0,output_name:"debug_r"} : (builtin.tensor<4xf32>) -> 
        () = "cf.yield" () {} : () -> 
    } else {
        () = "cf.yield" () {} : () -> 
    }
    (%3) = "pd_op.exp" (%2) {op_role:(Int32)1,stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    () = "builtin.shadow_output" (%3) {op_role:(Int32)1,output_name:"g"} : (builtin.tensor<4xf32>) -> 
}
