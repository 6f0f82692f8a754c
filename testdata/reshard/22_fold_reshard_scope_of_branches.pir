// RUN: pir-opt %s --pass-pipeline=fold-reshard
// RULE: fold-reshard: a reshard in one branch of a pd_op.if is in scope only in that branch: the same reshard in the other branch and the first one after the pd_op.if both stay, and a later one after the pd_op.if is merged into the one after the pd_op.if
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},result(0):{dims_maping:[0,-1]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,16],stop_gradient:[true]} : () -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)bool,name:"flag",op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},result(0):{dims_maping:[-1]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[1],stop_gradient:[true]} : () -> pd_dist.tensor<1xb, mesh_shape:[4],dims_mappings:[-1]>
    (%2) = "pd_op.if" (%1) {stop_gradient:[false]} -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]> {
        (%3) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[0,-1]},result(0):{dims_maping:[-1,-1]}}} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
        (%4) = "pd_op.relu" (%3) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1]}},stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
        () = "cf.yield" (%4) {} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> 
    } else {
        (%5) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[0,-1]},result(0):{dims_maping:[-1,-1]}}} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
        (%6) = "pd_op.exp" (%5) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1]}},stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
        () = "cf.yield" (%6) {} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> 
    }
    (%7) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[0,-1]},result(0):{dims_maping:[-1,-1]}}} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%8) = "pd_op.gelu" (%7) {approximate:false,op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1]}},stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%9) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[0,-1]},result(0):{dims_maping:[-1,-1]}}} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%10) = "pd_op.tanh" (%9) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1]}},stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    () = "builtin.shadow_output" (%2) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]}},output_name:"out_a"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> 
    () = "builtin.shadow_output" (%8) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]}},output_name:"out_b"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> 
    () = "builtin.shadow_output" (%10) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]}},output_name:"out_c"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> 
}
