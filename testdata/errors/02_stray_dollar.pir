{
    ($0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
}
