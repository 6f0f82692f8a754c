{
    (%0) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[4],value:1} : () -> tensor<4xf32>
    (%1) = "pd_op.softmax" (%0) {axis:(Int32)3000000000,stop_gradient:[false]} : (tensor<4xf32>) -> tensor<4xf32>
}
