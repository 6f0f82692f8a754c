(%0) = "pd_op.data" () {dtype:(pd_op.DataType)float16,name:"a",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[3,4],stop_gradient:[false]} : () -> builtin.tensor<3x4xf16>
(%1) = "pd_op.data" () {dtype:(pd_op.DataType)float16,name:"b",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[5,4],stop_gradient:[false]} : () -> builtin.tensor<5x4xf16>
  (%2) = "pd_op.full" () {dtype:(pd_op.DataType)int32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Double)0} : () -> builtin.tensor<1xi32>
(%3) = "builtin.combine" (%0, %1) {stop_gradient:[false]} : (builtin.tensor<3x4xf16>, builtin.tensor<5x4xf16>) -> vec[builtin.tensor<3x4xf16>,builtin.tensor<5x4xf16>]
    (%4) = "pd_op.concat" (%3, %2) {stop_gradient:[false]} : (vec[builtin.tensor<3x4xf16>,builtin.tensor<5x4xf16>], builtin.tensor<1xi32>) -> builtin.tensor<8x4xf16>
() = "builtin.shadow_output" (%4) {output_name:"c"} : (builtin.tensor<8x4xf16>) ->
