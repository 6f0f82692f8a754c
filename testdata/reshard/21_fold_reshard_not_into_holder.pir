// RUN: pir-opt %s --pass-pipeline=fold-reshard
// RULE: fold-reshard: a reshard inside the regions of a reshard of the same value to the same type is not merged into it (the holder's result exists only after the holder); one after the holder in the same block is merged; the inner one is merged with a second inner one
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},result(0):{dims_maping:[0,-1]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,16],stop_gradient:[true]} : () -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[0,-1]},result(0):{dims_maping:[-1,-1]}}} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    {
        (%2) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[0,-1]},result(0):{dims_maping:[-1,-1]}}} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
        (%3) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[0,-1]},result(0):{dims_maping:[-1,-1]}}} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
        (%4) = "pd_op.add" (%2, %3) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},operand(1):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1]}},stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>, pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
        () = "cf.yield" (%4) {} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> 
    }

    (%5) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[0,-1]},result(0):{dims_maping:[-1,-1]}}} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%6) = "pd_op.relu" (%5) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1]}},stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]}},output_name:"out_a"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> 
    () = "builtin.shadow_output" (%6) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]}},output_name:"out_b"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> 
}
