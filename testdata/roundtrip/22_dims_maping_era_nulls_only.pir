{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2],stop_gradient:[true],value:1} : () -> tensor<2xf32>
    (%1) = "pd_op.assign" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{null},result(0):{null}},stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>
}
