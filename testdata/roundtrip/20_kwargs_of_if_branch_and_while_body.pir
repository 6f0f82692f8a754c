{
    (%0) = "pd_op.full" () {} : () -> tensor<1xb>
    (%1) = "pd_op.if" (%0) {} -> tensor<1xf32> {
        ^kw:
            %kwarg_a {}
        (%2) = "pd_op.x" (%kwarg_a) {} : (tensor<1xf32>) -> tensor<1xf32>
        () = "cf.yield" (%2) {} : (tensor<1xf32>) -> 
    } else {
        () = "cf.yield" (%0) {} : (tensor<1xb>) -> 
    }
    (%3) = "pd_op.while" (cond=%0, inputs=%1) { 
    ^kw:
        %kwarg_b {}
    ^%arg_0 {}
        () = "cf.yield" (%0, %kwarg_b) {} : (tensor<1xb>, tensor<1xf32>) -> 
    }
}
