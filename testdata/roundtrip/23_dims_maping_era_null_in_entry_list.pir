{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2],stop_gradient:[true],value:1} : () -> tensor<2xf32>
    (%1) = "builtin.combine" (%0, %0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{dims_maping:[-1]},operand(1):{null},result(0):{[dims_maping:[-1],null]}},stop_gradient:[true]} : (tensor<2xf32>, tensor<2xf32>) -> vec[tensor<2xf32>,tensor<2xf32>]
    (%2, %3) = "builtin.split" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{[null,dims_maping:[-1],partial(0,SUM)]},result(0):{null},result(1):{dims_maping:[-1],partial(0,SUM)}},stop_gradient:[true]} : (vec[tensor<2xf32>,tensor<2xf32>]) -> tensor<2xf32>, tensor<2xf32>
}
