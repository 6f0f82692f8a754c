{
    (%0) = "pd_op.relu" (%arg_0 {}) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
