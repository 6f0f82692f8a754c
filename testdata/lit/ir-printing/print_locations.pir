// RUN: pir-opt %s --pass-pipeline=apply-partition --print-locations | FileCheck %s
// RUN: pir-opt %s --print-locations | pir-opt | FileCheck %s --check-prefix=REREAD
// --print-locations appends the line each op was read from; an op a pass
// made says so, and which input op it stands for (the one it was put
// before). The comments read back.

// CHECK:      "pd_op.data" {{.*}} // loc: {{.*}}print_locations.pir:[[@LINE+12]]{{$}}
// CHECK-NEXT: "pd_op.data" {{.*}} // loc: {{.*}}print_locations.pir:[[@LINE+12]]{{$}}
// CHECK-NEXT: "builtin.parameter" {{.*}} // loc: {{.*}}print_locations.pir:[[@LINE+12]]{{$}}
// CHECK-NEXT: "dist_op.reshard" {{.*}} // loc: made by apply-partition from {{.*}}print_locations.pir:[[ADD:[0-9]+]]{{$}}
// CHECK-NEXT: "dist_op.reshard" {{.*}} // loc: made by apply-partition from {{.*}}print_locations.pir:[[ADD]]{{$}}
// CHECK-NEXT: "pd_op.add" {{.*}} // loc: {{.*}}print_locations.pir:[[ADD]]{{$}}
// CHECK-NEXT: "dist_op.reshard" {{.*}} // loc: made by apply-partition from

// REREAD:     "pd_op.data"
// REREAD-NOT: loc:

{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},result(0):{dims_maping:[0,-1]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,16],stop_gradient:[true]} : () -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>
    (%1) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"y",op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},result(0):{dims_maping:[-1,0]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[8,16],stop_gradient:[true]} : () -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,0]>
    (%2) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},result(0):{dims_maping:[0,-1]}},parameter_name:"linear_0.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> pd_dist.tensor<16x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>
    (%3) = "pd_op.add" (%0, %1) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},operand(1):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1]}},stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>, pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,0]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    (%4) = "pd_op.matmul" (%3, %2) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,0]},operand(1):{dims_maping:[0,-1]},result(0):{dims_maping:[-1,-1],partial(0,SUM)}},stop_gradient:[false],transpose_x:false,transpose_y:false} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>, pd_dist.tensor<16x16xf32, mesh_shape:[4],dims_mappings:[0,-1]>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1], partial(0,SUM)>
    (%5) = "pd_op.multiply" (%3, %4) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]},operand(1):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1]}},stop_gradient:[false]} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>, pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1], partial(0,SUM)>) -> pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>
    () = "builtin.shadow_output" (%5) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1,-1]}},output_name:"out"} : (pd_dist.tensor<8x16xf32, mesh_shape:[4],dims_mappings:[-1,-1]>) -> 
}
