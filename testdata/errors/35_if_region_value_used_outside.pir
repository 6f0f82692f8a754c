{
    (%0) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],value:1} : () -> tensor<1xb>
    (%1) = "pd_op.if" (%0) {} -> tensor<1xb> {
        (%2) = "pd_op.logical_not" (%0) {} : (tensor<1xb>) -> tensor<1xb>
        () = "cf.yield" (%2) {} : (tensor<1xb>) -> 
    } else {
        () = "cf.yield" (%0) {} : (tensor<1xb>) -> 
    }
    (%3) = "pd_op.logical_and" (%1, %2) {} : (tensor<1xb>, tensor<1xb>) -> tensor<1xb>
}
