{
    (%123) = "pd_op.full" () {} : () -> tensor<1xf32>
    (%1) = "pd_op.relu" (%0123) {} : (tensor<1xf32>) -> tensor<1xf32>
}
