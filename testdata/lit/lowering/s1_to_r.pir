// RUN: pir-opt %s --pass-pipeline='lower-reshard{rank=0}' | FileCheck %s
// RUN: pir-opt %s --pass-pipeline='lower-reshard{rank=1}' | FileCheck %s
// S(1)->R of an 8x8 tensor on [0,1] (Paddle's pir_reshard_s_to_r.py, case A
// shard 1): the same five ops on both ranks, the concat reading the split.

// CHECK-LABEL: "builtin.parameter"
// CHECK-NEXT:  ([[G:%[0-9]+]]) = "pd_op.all_gather" (%0) {nranks:(Int32)2,
// CHECK-SAME:  ring_id:(Int32)12
// CHECK-NEXT:  ([[AXIS:%[0-9]+]]) = "pd_op.full" ()
// CHECK-NEXT:  ([[PARTS:%[0-9]+]]) = "pd_op.split_with_num" ([[G]], [[AXIS]]) {num:(Int32)2,
// CHECK-NEXT:  ([[CAXIS:%[0-9]+]]) = "pd_op.full" ()
// CHECK-NEXT:  ([[OUT:%[0-9]+]]) = "pd_op.concat" ([[PARTS]], [[CAXIS]])
// CHECK-NOT:   dist_op.reshard
// CHECK:       "builtin.shadow_output" ([[OUT]])
{
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},chunk_id:0},parameter_name:"w0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_dist.tensor<8x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},chunk_id:0}} : (pd_dist.tensor<8x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>) -> pd_dist.tensor<8x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]},chunk_id:0},output_name:"out"} : (pd_dist.tensor<8x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>) -> 
}
