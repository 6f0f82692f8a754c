{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
    (%1) = "pd_op.add" (%0, %0) {} : (tensor<4xf32>) -> tensor<4xf32>
}
