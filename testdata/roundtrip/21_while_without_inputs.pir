{
    (%0) = "pd_op.full" () {dtype:bool,place:Place(cpu),shape:[1],stop_gradient:[true],value:false} : () -> tensor<1xb>
    () = "pd_op.while" (cond=%0, inputs=) { 
    ^
        () = "cf.yield" (%0) {} : (tensor<1xb>) -> 
    }
}
