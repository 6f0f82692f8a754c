{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[-1,4],stop_gradient:[true]} : () -> tensor<12345678901234567890x4xf32>
}
