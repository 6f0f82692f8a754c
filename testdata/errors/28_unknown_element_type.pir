{
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf33>
}
