// RUN: pir-opt %s --print-era=2024
{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[2],stop_gradient:[true],value:1} : () -> tensor<2xf32>
    (%1) = "custom_op.frobnicate" (%0) {stop_gradient:[true],times:3} : (tensor<2xf32>) -> tensor<2xf32>
}
