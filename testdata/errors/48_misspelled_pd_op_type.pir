{
    (%0) = "pd_op.create_array" () {dtype:float32} : () -> pd_op.tensorarray<f32>
    (%1) = "pd_op.array_length" (%0) {} : (pd_op.tensor_array<f32>) -> builtin.tensor<1xi64>
}
