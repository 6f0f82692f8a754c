// RUN: pir-opt %s --split-input-file
{
    (%0) = "pd_op.full" () {} : () -> tensor<1xf32>
}
// -----
