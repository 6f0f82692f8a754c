// RUN: not pir-opt %s --pass-pipeline='pipeline-split{mode=X}' 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not pir-opt %s --pass-pipeline='pipeline-split{mode=1F1B split-bw=true}' 2>&1 | FileCheck %s --check-prefix=BW
// RUN: not pir-opt %s --pass-pipeline='pipeline-split{vpp=0}' 2>&1 | FileCheck %s --check-prefix=VPP
// Bad options are refused before the input is read, located in the pipeline.

// MODE:      <pass-pipeline>:1:21: error: unknown pipeline mode 'X' (expected FThenB, 1F1B, VPP, ZBH1, ZBVPP, ZB1P, ZBV or DualPipeV)
// MODE-NEXT: pipeline-split{mode=X}
// MODE-NEXT: {{^                    \^$}}
// BW:        <pass-pipeline>:1:26: error: split-bw needs mode=VPP
// VPP:       <pass-pipeline>:1:{{[0-9]+}}: error: {{.*}}vpp

{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_role:(Int32)0,place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[false]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    () = "builtin.shadow_output" (%1) {op_role:(Int32)0,output_name:"out"} : (builtin.tensor<4xf32>) -> 
    (%2) = "pd_op.exp" (%1) {op_role:(Int32)0,stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    () = "builtin.shadow_output" (%2) {op_role:(Int32)0,output_name:"out"} : (builtin.tensor<4xf32>) -> 
    (%3) = "pd_op.scale" (%1) {bias:(Float)0,bias_after_scale:true,op_role:(Int32)1,scale:(Float)2,stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    () = "builtin.shadow_output" (%3) {op_role:(Int32)1,output_name:"g"} : (builtin.tensor<4xf32>) -> 
}
