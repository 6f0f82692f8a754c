// RUN: pir-opt %s --pass-pipeline=apply-partition | FileCheck %s
// Each mismatched operand gets its own reshard, in operand order, right
// before its consumer.

// CHECK:      ([[X:%[0-9]+]]) = "pd_op.data" {{.*}}name:"x"
// CHECK-NEXT: ([[Y:%[0-9]+]]) = "pd_op.data" {{.*}}name:"y"
// CHECK-NEXT: ([[W:%[0-9]+]]) = "builtin.parameter"
// CHECK-NEXT: ([[RX:%[0-9]+]]) = "dist_op.reshard" ([[X]])
// CHECK-NEXT: ([[RY:%[0-9]+]]) = "dist_op.reshard" ([[Y]])
// CHECK-NEXT: ([[A:%[0-9]+]]) = "pd_op.add" ([[RX]], [[RY]])
// CHECK-NEXT: ([[RA:%[0-9]+]]) = "dist_op.reshard" ([[A]])
// CHECK-NEXT: ([[M:%[0-9]+]]) = "pd_op.matmul" ([[RA]], [[W]])
// CHECK-NEXT: ([[RM:%[0-9]+]]) = "dist_op.reshard" ([[M]])
// CHECK-NEXT: "pd_op.multiply" ([[A]], [[RM]])

{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},result(0):{dims_maping:[0,-1]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,16],stop_gradient:[true]} : () -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"y",op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},result(0):{dims_maping:[-1,0]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,16],stop_gradient:[true]} : () -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,0]>
    (%2) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},result(0):{dims_maping:[0,-1]}},parameter_name:"linear_0.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_dist.tensor<16x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>
    (%3) = "pd_op.add" (%0, %1) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},operand(1):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1]}},stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>, pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,0]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%4) = "pd_op.matmul" (%3, %2) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,0]},operand(1):{dims_maping:[0,-1]},result(0):{dims_maping:[-1,-1],partial(0,SUM)}},stop_gradient:[false],transpose_x:false,transpose_y:false} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>, pd_dist.tensor<16x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1], partial(0,SUM)>
    (%5) = "pd_op.multiply" (%3, %4) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},operand(1):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1]}},stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>, pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1], partial(0,SUM)>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    () = "builtin.shadow_output" (%5) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]}},output_name:"out"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> 
}
