{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {} : (buitlin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
