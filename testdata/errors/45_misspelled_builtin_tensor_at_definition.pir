{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> builtin.tenosr<4xf32>
    (%1) = "pd_op.relu" (%0) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<4xf32>, builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
