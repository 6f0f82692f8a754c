//===- op_table_data.cpp - the entries of the op table --------------------===//
//
// Names and in-place pairs as Paddle's op definitions give them
// (paddle/phi/ops/yaml/ops.yaml, backward.yaml, inconsistent/static_ops.yaml
// and static_backward.yaml, paddle/fluid/pir/dialect/operator/ir/ops.yaml,
// paddle/pir/include/core/builtin_op.h). A mutable attribute (IntArray or
// Scalar that may be a tensor) is an operand after the tensor inputs, in
// yaml order, as PIR prints it (reshape's shape, slice's starts and ends).
// `inplace: (x -> out)` on op `relu` describes `relu_`: only names ending in
// `_` carry pairs here.
//
// Linearity: bit i says the op's results are linear in operand i with the
// other operands fixed (a constant in it, such as add_grad's x_grad in x,
// is not linear). An op that reads only an operand's shape is not linear
// in it. Lookup is one hash of the name into a table built at compile time.
//
//===----------------------------------------------------------------------===//
#include <array>
#include <bit>
#include <cstring>
#include <type_traits>

#include "core/bytes_equal.h"
#include "core/op_result_types.h"
#include "core/operation.h"

namespace pir::core {

namespace {

using SV = std::string_view;
namespace t = op_types;

constexpr uint32_t kL0 = 1u << 0, kL1 = 1u << 1, kL2 = 1u << 2, kL5 = 1u << 5;

// Operand and result name lists shared by several ops.
constexpr SV kX[] = {"x"};
constexpr SV kXY[] = {"x", "y"};
constexpr SV kOut[] = {"out"};
constexpr SV kXGrad[] = {"x_grad"};
constexpr SV kXYGrad[] = {"x_grad", "y_grad"};
constexpr SV kXYOutGrad[] = {"x", "y", "out_grad"};
constexpr SV kXOutGrad[] = {"x", "out_grad"};
constexpr SV kOutOutGrad[] = {"out", "out_grad"};
constexpr SV kXAxis[] = {"x", "axis"};
constexpr SV kInput[] = {"input"};
constexpr SV kInputs[] = {"inputs"};
constexpr SV kParameter[] = {"parameter"};
constexpr SV kOutXShape[] = {"out", "xshape"};
constexpr std::span<const SV> kEmpty;

constexpr InplacePair kFirstToFirst[] = {{0, 0}};
constexpr SV kAssignValueIn[] = {"output"};
constexpr SV kSelectInputIn[] = {"mask", "inputs"};
constexpr SV kSelectOutputIn[] = {"mask", "x"};

constexpr SV kLoopStack =
    "training through a loop (the cf stack ops that keep its forward values for the backward) is not supported: "
    "the runner runs control flow forward only";

// sgd_(param, learning_rate, grad, master_param) -> (param_out, master_param_out)
constexpr SV kSgdIn[] = {"param", "learning_rate", "grad", "master_param"};
constexpr SV kSgdOut[] = {"param_out", "master_param_out"};
constexpr InplacePair kSgd[] = {{0, 0}, {3, 1}};

// momentum_(param, grad, velocity, learning_rate, master_param)
constexpr SV kMomentumIn[] = {"param", "grad", "velocity", "learning_rate", "master_param"};
constexpr SV kMomentumOut[] = {"param_out", "velocity_out", "master_param_out"};
constexpr InplacePair kMomentum[] = {{0, 0}, {2, 1}, {4, 2}};

// adam_/adamw_ with amsgrad's moment2_max (10 operands; 13 with beta1,
// beta2, epsilon as tensors), and before it (9; 12).
constexpr SV kAdamAmsgradIn[] = {"param",       "grad",      "learning_rate", "moment1",      "moment2",
                                 "moment2_max", "beta1_pow", "beta2_pow",     "master_param", "skip_update",
                                 "beta1",       "beta2",     "epsilon"};
constexpr SV kAdamAmsgradOut[] = {"param_out",     "moment1_out",   "moment2_out",     "moment2_max_out",
                                  "beta1_pow_out", "beta2_pow_out", "master_param_out"};
constexpr InplacePair kAdamAmsgrad[] = {{0, 0}, {3, 1}, {4, 2}, {5, 3}, {6, 4}, {7, 5}, {8, 6}};
constexpr SV kAdamIn[] = {"param",     "grad",         "learning_rate", "moment1", "moment2", "beta1_pow",
                          "beta2_pow", "master_param", "skip_update",   "beta1",   "beta2",   "epsilon"};
constexpr SV kAdamOut[] = {"param_out",     "moment1_out",   "moment2_out",
                           "beta1_pow_out", "beta2_pow_out", "master_param_out"};
constexpr InplacePair kAdam[] = {{0, 0}, {3, 1}, {4, 2}, {5, 3}, {6, 4}, {7, 5}};
constexpr OpLayout kAdamLayouts[] = {
    {.operands = std::span(kAdamAmsgradIn, 10), .results = kAdamAmsgradOut, .inplace = kAdamAmsgrad},
    {.operands = std::span(kAdamIn, 9), .results = kAdamOut, .inplace = kAdam},
    {.operands = kAdamAmsgradIn, .results = kAdamAmsgradOut, .inplace = kAdamAmsgrad},
    {.operands = kAdamIn, .results = kAdamOut, .inplace = kAdam},
};

// lamb_(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow, master_param, skip_update)
constexpr SV kLambOut[] = {"param_out",     "moment1_out",   "moment2_out",
                           "beta1_pow_out", "beta2_pow_out", "master_param_outs"};

// assign_out_(x, output) -> out, writing output
constexpr SV kAssignOutIn[] = {"x", "output"};
constexpr InplacePair kAssignOut[] = {{1, 0}};

constexpr SV kCond[] = {"cond"};
constexpr SV kWhileIn[] = {"cond", "inputs"};
constexpr SV kFullLikeIn[] = {"x", "value"};
constexpr SV kConcatIn[] = {"x", "axis"};
constexpr SV kConvIn[] = {"input", "filter"};
constexpr SV kCrossEntropyIn[] = {"input", "label"};
constexpr SV kCrossEntropyOut[] = {"softmax", "loss"};
constexpr SV kCrossEntropyGradIn[] = {"label", "softmax", "loss_grad"};
constexpr SV kInputGrad[] = {"input_grad"};
constexpr SV kLabelSmoothIn[] = {"label", "prior_dist"};
constexpr SV kLayerNormIn[] = {"x", "scale", "bias"};
constexpr SV kLayerNormOut[] = {"out", "mean", "variance"};
constexpr SV kLayerNormGradIn[] = {"x", "scale", "bias", "mean", "variance", "out_grad"};
constexpr SV kLayerNormGradOut[] = {"x_grad", "scale_grad", "bias_grad"};
constexpr SV kPoolIn[] = {"x", "kernel_size"};
constexpr SV kPrintIn[] = {"in"};
constexpr SV kReshapeIn[] = {"x", "shape"};
constexpr SV kScaleIn[] = {"x", "scale"};
constexpr SV kFullIn[] = {"output"};
// set_value_with_tensor_(x, values, starts, ends, steps) {axes, decrease_axes, none_axes}
constexpr SV kSetValueWithTensorIn[] = {"x", "values", "starts", "ends", "steps"};
constexpr SV kSize[] = {"size"};
constexpr SV kSliceIn[] = {"input", "starts", "ends"};
constexpr SV kSplitIn[] = {"x", "sections", "axis"};
constexpr SV kUniformIn[] = {"shape", "min", "max"};
constexpr SV kOutputs[] = {"outputs"};
// where(condition, x, y) -> out
constexpr SV kWhereIn[] = {"condition", "x", "y"};
constexpr SV kWhereGradIn[] = {"condition", "x", "y", "out_grad"};
constexpr SV kXYOutOutGrad[] = {"x", "y", "out", "out_grad"};
constexpr SV kXOutGradAxis[] = {"x", "out_grad", "axis"};
// The math, reduction and shape ops of real programs (issue 29).
constexpr SV kArangeIn[] = {"start", "end", "step"};
constexpr SV kClipIn[] = {"x", "min", "max"};
constexpr SV kClipGradIn[] = {"x", "out_grad", "min", "max"};
constexpr SV kExpandGradIn[] = {"x", "out_grad", "shape"};
constexpr SV kOneHotIn[] = {"x", "num_classes"};
constexpr SV kOutGrad[] = {"out_grad"};
// scatter(x, index, updates){overwrite}; scatter_grad(index, updates, out_grad)
constexpr SV kScatterIn[] = {"x", "index", "updates"};
constexpr SV kScatterGradIn[] = {"index", "updates", "out_grad"};
constexpr SV kScatterGradOut[] = {"x_grad", "updates_grad"};
constexpr SV kTileIn[] = {"x", "repeat_times"};
constexpr SV kTileGradIn[] = {"x", "out_grad", "repeat_times"};
constexpr SV kXIndex[] = {"x", "index"};
constexpr SV kXIndexAxis[] = {"x", "index", "axis"};
constexpr SV kXIndexOutGrad[] = {"x", "index", "out_grad"};
constexpr SV kXIndexOutGradAxis[] = {"x", "index", "out_grad", "axis"};
constexpr SV kXOutOutGrad[] = {"x", "out", "out_grad"};
constexpr SV kXOutOutGradAxis[] = {"x", "out", "out_grad", "axis"};
// Convolutional nets (issue 29): conv2d_grad(input, filter, out_grad); pool2d_grad(x, out,
// out_grad, kernel_size); batch_norm(_) writes mean and variance in place as mean_out and
// variance_out.
constexpr SV kConvGradIn[] = {"input", "filter", "out_grad"};
constexpr SV kConvGradOut[] = {"input_grad", "filter_grad"};
constexpr SV kPoolGradIn[] = {"x", "out", "out_grad", "kernel_size"};
constexpr SV kBatchNormIn[] = {"x", "mean", "variance", "scale", "bias"};
constexpr SV kBatchNormOut[] = {"out", "mean_out", "variance_out", "saved_mean", "saved_variance", "reserve_space"};
constexpr InplacePair kBatchNormInplace[] = {{1, 1}, {2, 2}};
constexpr SV kBatchNormGradIn[] = {"x",          "scale",          "bias",          "mean_out", "variance_out",
                                   "saved_mean", "saved_variance", "reserve_space", "out_grad"};
constexpr SV kBatchNormGradOut[] = {"x_grad", "scale_grad", "bias_grad"};
// The transformer ops (issue 30), with their attribute names in yaml order.
// embedding(x, weight){padding_idx, sparse}; embedding_grad(x, weight, out_grad){padding_idx}
constexpr SV kEmbeddingIn[] = {"x", "weight"};
constexpr SV kEmbeddingAttrs[] = {"padding_idx", "sparse"};
constexpr SV kEmbeddingGradIn[] = {"x", "weight", "out_grad"};
constexpr SV kEmbeddingGradAttrs[] = {"padding_idx"};
constexpr SV kWeightGrad[] = {"weight_grad"};
// c_embedding(weight, x){start_index, vocab_size}; c_embedding_grad(weight, x, out_grad){start_index}
constexpr SV kCEmbeddingIn[] = {"weight", "x"};
constexpr SV kCEmbeddingAttrs[] = {"start_index", "vocab_size"};
constexpr SV kCEmbeddingGradIn[] = {"weight", "x", "out_grad"};
constexpr SV kCEmbeddingGradAttrs[] = {"start_index"};
// rms_norm(x, bias?, residual?, norm_weight, norm_bias?) -> (out, residual_out, inv_var);
// rms_norm_grad(.., inv_var, out_grad) -> (x_grad, norm_weight_grad, norm_bias_grad)
constexpr SV kRmsNormIn[] = {"x", "bias", "residual", "norm_weight", "norm_bias"};
constexpr SV kRmsNormOut[] = {"out", "residual_out", "inv_var"};
constexpr SV kRmsNormAttrs[] = {"epsilon",          "begin_norm_axis", "quant_scale",
                                "quant_round_type", "quant_max_bound", "quant_min_bound"};
constexpr SV kRmsNormGradIn[] = {"x", "bias", "residual", "norm_weight", "norm_bias", "inv_var", "out_grad"};
constexpr SV kRmsNormGradOut[] = {"x_grad", "norm_weight_grad", "norm_bias_grad"};
constexpr SV kRmsNormGradAttrs[] = {"epsilon", "begin_norm_axis", "quant_scale"};
// fused_rotary_position_embedding(q, k?, v?, sin?, cos?, position_ids?) -> (out_q, out_k, out_v);
// its grad (sin, cos, position_ids, out_q_grad, out_k_grad, out_v_grad) -> (q_grad, k_grad, v_grad)
constexpr SV kRopeIn[] = {"q", "k", "v", "sin", "cos", "position_ids"};
constexpr SV kRopeOut[] = {"out_q", "out_k", "out_v"};
constexpr SV kRopeAttrs[] = {"use_neox_rotary_style", "time_major", "rotary_emb_base"};
constexpr SV kRopeGradIn[] = {"sin", "cos", "position_ids", "out_q_grad", "out_k_grad", "out_v_grad"};
constexpr SV kRopeGradOut[] = {"q_grad", "k_grad", "v_grad"};
// dropout(x, seed_tensor?){p, ..} -> (out, mask); dropout_grad(mask, out_grad) -> x_grad
constexpr SV kDropoutIn[] = {"x", "seed_tensor"};
constexpr SV kDropoutOut[] = {"out", "mask"};
constexpr SV kDropoutAttrs[] = {"p", "is_test", "mode", "seed", "fix_seed"};
constexpr SV kDropoutGradIn[] = {"mask", "out_grad"};
constexpr SV kDropoutGradAttrs[] = {"p", "is_test", "mode"};
// flash_attn(q, k, v, fixed_seed_offset?, attn_mask?) -> (out, softmax, softmax_lse, seed_offset);
// flash_attn_grad(q, k, v, out, softmax_lse, seed_offset, attn_mask?, out_grad) -> (q_grad, k_grad, v_grad)
constexpr SV kFlashAttnIn[] = {"q", "k", "v", "fixed_seed_offset", "attn_mask"};
constexpr SV kFlashAttnOut[] = {"out", "softmax", "softmax_lse", "seed_offset"};
constexpr SV kFlashAttnAttrs[] = {"dropout", "causal", "return_softmax", "is_test", "rng_name"};
constexpr SV kFlashAttnGradIn[] = {"q", "k", "v", "out", "softmax_lse", "seed_offset", "attn_mask", "out_grad"};
constexpr SV kFlashAttnGradOut[] = {"q_grad", "k_grad", "v_grad"};
constexpr SV kFlashAttnGradAttrs[] = {"dropout", "causal"};
// The grads of data movement: concat_grad(x, out_grad, axis) -> x_grad (a vec, one
// per x); slice_grad(input, out_grad, starts, ends); split_grad(out_grad, axis),
// PIR's own op for split's backward (backward.yaml invokes concat; PIR's vjp
// builds pd_op.split_grad, a manual op of paddle/fluid/pir/dialect/operator/ir).
constexpr SV kConcatGradIn[] = {"x", "out_grad", "axis"};
constexpr SV kSliceGradIn[] = {"input", "out_grad", "starts", "ends"};
constexpr SV kSplitGradIn[] = {"out_grad", "axis"};

// Attribute names (OpInfo::attributes), in the order of the op's yaml `args`
// with the operands taken out, then what PIR adds for that op. Sources:
// paddle/phi/ops/yaml/ops.yaml, backward.yaml, inconsistent/static_ops.yaml
// and static_backward.yaml, paddle/fluid/pir/dialect/operator/ir/ops.yaml
// (arange, feed, fetch, data), paddle/pir/include/core/builtin_op.h,
// paddle/cinn/hlir/dialect/operator/ir/ops.yaml and manual_op.cc,
// paddle/fluid/pir/dialect/distributed/ir/dist_op.cc. An op without any
// records kNoAttrs: an empty list whose data() is not null.
constexpr SV kNoAttrsStorage[] = {""};
constexpr std::span<const SV> kNoAttrs(kNoAttrsStorage, 0);
// builtin, CINN, dist_op
constexpr SV kAValue[] = {"value"};
constexpr SV kAParameterName[] = {"parameter_name"};
// builtin.parameter: then the flags Paddle's Python sets on a parameter it
// creates (ParamAttr's need_clip and trainable, is_distributed, is_parameter)
constexpr SV kAParameter[] = {"parameter_name", "is_distributed", "is_parameter", "need_clip", "trainable"};
constexpr SV kAOutputName[] = {"output_name"};
constexpr SV kAIndex[] = {"index"};
constexpr SV kAGroupInfo[] = {"group_info"};
constexpr SV kAFusion[] = {"group_info", "fusion_tracker"};
constexpr SV kACinnBroadcast[] = {"broadcast_axes", "out_shape"};
constexpr SV kADimKeepDim[] = {"dim", "keep_dim"};
constexpr SV kAKernelInfo[] = {"kernel_info"};
constexpr SV kAOpDistAttr[] = {"op_dist_attr"};
// communication
constexpr SV kARing[] = {"ring_id"};
constexpr SV kARingNranks[] = {"ring_id", "nranks"};
constexpr SV kARingReduce[] = {"ring_id", "reduce_type"};
constexpr SV kARingRoot[] = {"ring_id", "root"};
constexpr SV kACRingNranks[] = {"ring_id", "nranks", "use_calc_stream"};
constexpr SV kACAllreduce[] = {"ring_id", "use_calc_stream", "use_model_parallel"};
constexpr SV kARecv[] = {"out_shape", "dtype", "peer", "ring_id", "use_calc_stream", "dynamic_shape"};
constexpr SV kASend[] = {"ring_id", "peer", "use_calc_stream", "dynamic_shape"};
// creation
constexpr SV kAData[] = {"name", "shape", "dtype", "place"};
constexpr SV kANameCol[] = {"name", "col"};
constexpr SV kAFull[] = {"shape", "value", "dtype", "place"};
constexpr SV kAFullIntArray[] = {"value", "dtype", "place"};
constexpr SV kADtypePlace[] = {"dtype", "place"};
constexpr SV kAAssignValue[] = {"shape", "dtype", "values", "place"};
constexpr SV kAUniform[] = {"dtype", "seed", "place"};
// add_: then the mark Paddle's gradient-merge pass leaves on the accumulation
constexpr SV kAGradMergeAdd[] = {"grad_merge_add"};
// math, shape, reductions
constexpr SV kAAxis[] = {"axis"};
constexpr SV kAArg[] = {"keepdims", "flatten", "dtype"};
constexpr SV kADtype[] = {"dtype"};
constexpr SV kACum[] = {"flatten", "exclusive", "reverse"};
constexpr SV kAFlatten[] = {"start_axis", "stop_axis"};
constexpr SV kAApproximate[] = {"approximate"};
constexpr SV kAEpsilon[] = {"epsilon"};
constexpr SV kANegativeSlope[] = {"negative_slope"};
constexpr SV kATransposeXY[] = {"transpose_x", "transpose_y"};
constexpr SV kAKeepdim[] = {"keepdim"};
constexpr SV kAAxisKeepdim[] = {"axis", "keepdim"};
constexpr SV kAKeepdimReduceAll[] = {"keepdim", "reduce_all"};
constexpr SV kAAxisKeepdimReduceAll[] = {"axis", "keepdim", "reduce_all"};
constexpr SV kADtypeKeepdim[] = {"dtype", "keepdim"};
constexpr SV kAY[] = {"y"};
constexpr SV kAScale[] = {"bias", "bias_after_scale"};
constexpr SV kAOverwrite[] = {"overwrite"};
constexpr SV kASetValue[] = {"axes", "decrease_axes", "none_axes"};
constexpr SV kASlice[] = {"axes", "infer_flags", "decrease_axis"};
constexpr SV kANum[] = {"num"};
constexpr SV kAPerm[] = {"perm"};
constexpr SV kADiagonal[] = {"diagonal"};
constexpr SV kAPrint[] = {"first_n",
                          "message",
                          "summarize",
                          "print_tensor_name",
                          "print_tensor_type",
                          "print_tensor_shape",
                          "print_tensor_layout",
                          "print_tensor_lod",
                          "print_phase",
                          "is_forward"};
// losses and norms
constexpr SV kACrossEntropy[] = {"soft_label", "use_softmax", "numeric_stable_mode", "ignore_index", "axis"};
constexpr SV kALayerNorm[] = {"epsilon", "begin_norm_axis"};
constexpr SV kABatchNorm[] = {"is_test",     "momentum",         "epsilon",
                              "data_format", "use_global_stats", "trainable_statistics"};
constexpr SV kABatchNormGrad[] = {"momentum", "epsilon",          "data_format",
                                  "is_test",  "use_global_stats", "trainable_statistics"};
// convolutional nets
constexpr SV kAConv[] = {"strides", "paddings", "padding_algorithm", "dilations", "groups", "data_format"};
constexpr SV kAPool[] = {"strides",      "paddings",       "ceil_mode", "exclusive",        "data_format",
                         "pooling_type", "global_pooling", "adaptive",  "padding_algorithm"};
// optimizers: beta1, beta2 and epsilon are attributes in the current signature
// (operands only in the 12- and 13-operand ones)
constexpr SV kAAdam[] = {"beta1",
                         "beta2",
                         "epsilon",
                         "lazy_mode",
                         "min_row_size_to_use_multithread",
                         "multi_precision",
                         "use_global_beta_pow",
                         "amsgrad"};
constexpr SV kAAdamw[] = {"beta1",           "beta2",
                          "epsilon",         "lr_ratio",
                          "coeff",           "with_decay",
                          "lazy_mode",       "min_row_size_to_use_multithread",
                          "multi_precision", "use_global_beta_pow",
                          "amsgrad"};
constexpr SV kALamb[] = {"weight_decay", "beta1", "beta2", "epsilon", "always_adapt", "multi_precision"};
constexpr SV kAMomentum[] = {
    "mu", "use_nesterov", "regularization_method", "regularization_coeff", "multi_precision", "rescale_grad"};
constexpr SV kASgd[] = {"multi_precision"};

/// A layout of fixed operands and results.
constexpr OpLayout fixed(std::span<const SV> in, std::span<const SV> out, uint32_t linear = 0,
                         std::span<const InplacePair> inplace = {}) {
  return {.operands = in, .results = out, .inplace = inplace, .linear = linear};
}
/// x -> out, not linear (an elementwise function or a comparison).
constexpr OpLayout kUnary = fixed(kX, kOut);
/// (x, y) -> out, not linear.
constexpr OpLayout kBinary = fixed(kXY, kOut);
/// x -> out, a linear map of x (data movement, a sum, a collective).
constexpr OpLayout kLinearUnary = fixed(kX, kOut, kL0);

constexpr OpInfo kOps[] = {
    // builtin, cf and dist_op
    {.name = "builtin.combine",
     .layout = {.operands = kInputs, .results = kOut, .linear = kL0, .variadicOperands = true},
     .attributes = kNoAttrs,
     .traits = kPacksVec | kReshardStep},
    {.name = "builtin.constant", .layout = fixed(kEmpty, kOut), .attributes = kAValue},
    // get/set_parameter name no value they hand over: pipeline-split names
    // only data, parameter and shadow_output values (as before the table).
    {.name = "builtin.get_parameter",  // builtin.parameter's name before 2024
     .layout = fixed(kEmpty, kOut),
     .attributes = kAParameterName,
     .scope = ScopeAccess::ReadsParameter,
     .scopeKey = "parameter_name"},
    {.name = "builtin.parameter",
     .layout = fixed(kEmpty, kOut),
     .attributes = kAParameter,
     .nameAttr = "parameter_name",
     .scope = ScopeAccess::ReadsParameter,
     .scopeKey = "parameter_name"},
    {.name = "builtin.set_parameter",
     .layout = fixed(kParameter, kEmpty, kL0),
     .attributes = kAParameterName,
     .scope = ScopeAccess::WritesParameter,
     .scopeKey = "parameter_name"},
    {.name = "builtin.shadow_output",
     .layout = fixed(kParameter, kEmpty, kL0),
     .attributes = kAOutputName,
     .nameAttr = "output_name",
     .scope = ScopeAccess::WritesOutput,
     .scopeKey = "output_name"},
    {.name = "builtin.slice", .layout = fixed(kInput, kOut, kL0), .attributes = kAIndex},
    {.name = "builtin.split",
     .layout = {.operands = kInput, .results = kOutputs, .linear = kL0, .variadicResults = true},
     .attributes = kNoAttrs,
     .traits = kPacksVec | kReshardStep},
    {.name = "cf.yield",
     .layout = {.operands = kInputs, .results = kEmpty, .linear = kL0, .variadicOperands = true},
     .attributes = kNoAttrs},
    // The stack ops carry a loop's forward values to its backward.
    {.name = "cf.has_elements", .attributes = kNoAttrs, .refusal = kLoopStack},
    {.name = "cf.stack_create", .attributes = kNoAttrs, .refusal = kLoopStack},
    {.name = "cf.tuple_pop", .attributes = kNoAttrs, .refusal = kLoopStack},
    {.name = "cf.tuple_push", .attributes = kNoAttrs, .refusal = kLoopStack},
    {.name = "cinn_op.fusion",
     .layout = {.operands = kEmpty, .results = kOut, .variadicResults = true},
     .attributes = kAFusion,
     .regionRun = RegionRun::Inline},
    {.name = "cinn_op.group",
     .layout = {.operands = kEmpty, .results = kOut, .variadicResults = true},
     .attributes = kAGroupInfo,
     .regionRun = RegionRun::Inline},
    // Ops of cinn_op.group regions (CINN's ops.yaml): broadcast (x){broadcast_axes,
    // out_shape}, reduce_max and reduce_sum (x){dim, keep_dim}
    {.name = "cinn_op.broadcast", .layout = kLinearUnary, .attributes = kACinnBroadcast},
    {.name = "cinn_op.reduce_max", .layout = kUnary, .attributes = kADimKeepDim},
    {.name = "cinn_op.reduce_sum", .layout = kLinearUnary, .attributes = kADimKeepDim},
    // kernel_info is a pointer into the process that compiled it.
    {.name = "cinn_runtime.jit_kernel",
     .attributes = kAKernelInfo,
     .refusal = "compiled CINN kernel: its code is not in the program"},
    {.name = "dist_op.reshard", .layout = kLinearUnary, .attributes = kAOpDistAttr},
    {.name = "dist_op.shard_tensor", .layout = kLinearUnary, .attributes = kAOpDistAttr},

    // pd_op, forward
    {.name = "pd_op.abs", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.add", .layout = fixed(kXY, kOut, kL0 | kL1), .attributes = kNoAttrs, .traits = kPassesGradient},
    {.name = "pd_op.add_",
     .layout = fixed(kXY, kOut, kL0 | kL1, kFirstToFirst),
     .attributes = kAGradMergeAdd,
     .traits = kPassesGradient},
    {.name = "pd_op.add_n", .layout = fixed(kInputs, kOut, kL0), .attributes = kNoAttrs},
    {.name = "pd_op.all_gather",
     .layout = kLinearUnary,
     .attributes = kARingNranks,
     .traits = kReshardStep,
     .comm = Communication::AllGather,
     .resultTypes = t::allGather},
    {.name = "pd_op.all_reduce",
     .layout = kLinearUnary,
     .attributes = kARingReduce,
     .traits = kPassesGradient | kReshardStep,
     .comm = Communication::AllReduce,
     .linearWhen = t::reducesLinearly,
     .resultTypes = t::sameAsX},
    {.name = "pd_op.all_reduce_",
     .layout = fixed(kX, kOut, kL0, kFirstToFirst),
     .attributes = kARingReduce,
     .traits = kReshardStep,
     .comm = Communication::AllReduce,
     .linearWhen = t::reducesLinearly,
     .resultTypes = t::sameAsX},
    {.name = "pd_op.all_to_all",
     .layout = kLinearUnary,
     .attributes = kARing,
     .traits = kReshardStep,
     .comm = Communication::AllToAll,
     .resultTypes = t::sameAsX},
    {.name = "pd_op.arange", .layout = fixed(kArangeIn, kOut), .attributes = kADtypePlace},
    {.name = "pd_op.argmax", .layout = fixed(kXAxis, kOut), .attributes = kAArg},
    {.name = "pd_op.argmin", .layout = fixed(kXAxis, kOut), .attributes = kAArg},
    {.name = "pd_op.assign",
     .layout = kLinearUnary,
     .attributes = kNoAttrs,
     .traits = kReshardStep,
     .resultTypes = t::sameAsX},
    {.name = "pd_op.assign_out_", .layout = fixed(kAssignOutIn, kOut, kL0, kAssignOut), .attributes = kNoAttrs},
    // assign_value(_)(output?) {shape, dtype, values, place}: the constant `values`
    {.name = "pd_op.assign_value", .layout = fixed(kEmpty, kOut), .attributes = kAAssignValue},
    {.name = "pd_op.assign_value_",
     .layout = fixed(kAssignValueIn, kOut, 0, kFirstToFirst),
     .attributes = kAAssignValue},
    {.name = "pd_op.batch_norm", .layout = fixed(kBatchNormIn, kBatchNormOut), .attributes = kABatchNorm},
    {.name = "pd_op.batch_norm_",
     .layout = fixed(kBatchNormIn, kBatchNormOut, 0, kBatchNormInplace),
     .attributes = kABatchNorm},
    {.name = "pd_op.broadcast",
     .layout = kLinearUnary,
     .attributes = kARingRoot,
     .traits = kReshardStep,
     .comm = Communication::Broadcast,
     .resultTypes = t::sameAsX},
    {.name = "pd_op.c_allgather",
     .layout = kLinearUnary,
     .attributes = kACRingNranks,
     .traits = kReshardStep,
     .comm = Communication::AllGather},
    {.name = "pd_op.c_allreduce_sum",
     .layout = kLinearUnary,
     .attributes = kACAllreduce,
     .traits = kPassesGradient | kReshardStep,
     .comm = Communication::AllReduceSum},
    {.name = "pd_op.c_allreduce_sum_",
     .layout = fixed(kX, kOut, kL0, kFirstToFirst),
     .attributes = kACAllreduce,
     .traits = kPassesGradient | kReshardStep,
     .comm = Communication::AllReduceSum},
    {.name = "pd_op.c_reducescatter",
     .layout = kLinearUnary,
     .attributes = kACRingNranks,
     .traits = kReshardStep,
     .comm = Communication::ReduceScatter},
    {.name = "pd_op.cast", .layout = kLinearUnary, .attributes = kADtype, .traits = kPassesGradient},
    {.name = "pd_op.clip", .layout = fixed(kClipIn, kOut), .attributes = kNoAttrs},
    {.name = "pd_op.concat",
     .layout = fixed(kConcatIn, kOut, kL0),
     .attributes = kNoAttrs,
     .traits = kReshardStep,
     .resultTypes = t::concat},
    {.name = "pd_op.conv2d", .layout = fixed(kConvIn, kOut, kL0 | kL1), .attributes = kAConv},
    {.name = "pd_op.cos", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.cross_entropy_with_softmax",
     .layout = fixed(kCrossEntropyIn, kCrossEntropyOut),
     .attributes = kACrossEntropy},
    {.name = "pd_op.cumsum", .layout = fixed(kXAxis, kOut, kL0), .attributes = kACum},
    {.name = "pd_op.data",
     .layout = fixed(kEmpty, kOut),
     .attributes = kAData,
     .nameAttr = "name",
     .scope = ScopeAccess::ReadsData,
     .scopeKey = "name"},
    {.name = "pd_op.divide", .layout = fixed(kXY, kOut, kL0), .attributes = kNoAttrs},
    {.name = "pd_op.equal", .layout = kBinary, .attributes = kNoAttrs},
    {.name = "pd_op.exp", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.expand", .layout = fixed(kReshapeIn, kOut, kL0), .attributes = kNoAttrs},
    {.name = "pd_op.feed",  // the executor's feed list, by name (older programs)
     .layout = fixed(kEmpty, kOut),
     .attributes = kANameCol,
     .nameAttr = "name",
     .scope = ScopeAccess::ReadsData,
     .scopeKey = "name"},
    {.name = "pd_op.fetch", .layout = kLinearUnary, .attributes = kANameCol},
    {.name = "pd_op.flatten", .layout = fixed(kX, kOutXShape, kL0), .attributes = kAFlatten},
    {.name = "pd_op.floor", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.full",
     .layout = fixed(kEmpty, kOut),
     .attributes = kAFull,
     .traits = kReshardStep,
     .resultTypes = t::full},
    // full_(output) {shape, value, dtype, place}: fills output in place
    {.name = "pd_op.full_", .layout = fixed(kFullIn, kOut, 0, kFirstToFirst), .attributes = kAFull},
    {.name = "pd_op.full_int_array",
     .layout = fixed(kEmpty, kOut),
     .attributes = kAFullIntArray,
     .traits = kReshardStep,
     .resultTypes = t::fullIntArray},
    {.name = "pd_op.full_like",
     .layout = fixed(kFullLikeIn, kOut, kL1),
     .attributes = kADtypePlace,
     .resultTypes = t::fullLike},
    {.name = "pd_op.gather", .layout = fixed(kXIndexAxis, kOut, kL0), .attributes = kNoAttrs},
    {.name = "pd_op.gather_nd", .layout = fixed(kXIndex, kOut, kL0), .attributes = kNoAttrs},
    {.name = "pd_op.gelu", .layout = kUnary, .attributes = kAApproximate},
    {.name = "pd_op.greater_equal", .layout = kBinary, .attributes = kNoAttrs},
    {.name = "pd_op.greater_than", .layout = kBinary, .attributes = kNoAttrs},
    {.name = "pd_op.if",
     .layout = {.operands = kCond, .results = kOut, .variadicResults = true},
     .attributes = kNoAttrs,
     .regionSyntax = RegionSyntax::IfElse,
     .regionRun = RegionRun::IfElse},
    {.name = "pd_op.index_select", .layout = fixed(kXIndex, kOut, kL0), .attributes = kAAxis},
    {.name = "pd_op.isinf", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.isnan", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.label_smooth", .layout = fixed(kLabelSmoothIn, kOut), .attributes = kAEpsilon},
    {.name = "pd_op.layer_norm", .layout = fixed(kLayerNormIn, kLayerNormOut), .attributes = kALayerNorm},
    {.name = "pd_op.leaky_relu", .layout = kUnary, .attributes = kANegativeSlope},
    {.name = "pd_op.less_equal", .layout = kBinary, .attributes = kNoAttrs},
    {.name = "pd_op.less_than", .layout = kBinary, .attributes = kNoAttrs},
    {.name = "pd_op.log", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.logical_and", .layout = kBinary, .attributes = kNoAttrs},
    {.name = "pd_op.logical_not", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.logical_or", .layout = kBinary, .attributes = kNoAttrs},
    {.name = "pd_op.logical_xor", .layout = kBinary, .attributes = kNoAttrs},
    {.name = "pd_op.logsumexp", .layout = kUnary, .attributes = kAAxisKeepdimReduceAll},
    {.name = "pd_op.matmul",
     .layout = fixed(kXY, kOut, kL0 | kL1),
     .attributes = kATransposeXY,
     .resultTypes = t::matmul},
    {.name = "pd_op.max", .layout = fixed(kXAxis, kOut), .attributes = kAKeepdim},
    {.name = "pd_op.maximum", .layout = kBinary, .attributes = kNoAttrs},
    {.name = "pd_op.mean", .layout = kLinearUnary, .attributes = kAAxisKeepdim},
    {.name = "pd_op.min", .layout = fixed(kXAxis, kOut), .attributes = kAKeepdim},
    {.name = "pd_op.minimum", .layout = kBinary, .attributes = kNoAttrs},
    {.name = "pd_op.multiply", .layout = fixed(kXY, kOut, kL0 | kL1), .attributes = kNoAttrs},
    {.name = "pd_op.not_equal", .layout = kBinary, .attributes = kNoAttrs},
    {.name = "pd_op.numel", .layout = fixed(kX, kSize), .attributes = kNoAttrs},
    {.name = "pd_op.one_hot", .layout = fixed(kOneHotIn, kOut), .attributes = kNoAttrs},
    {.name = "pd_op.pool2d",
     .layout = fixed(kPoolIn, kOut, kL0),
     .attributes = kAPool,
     .linearWhen = t::poolsByAverage},
    {.name = "pd_op.pow", .layout = kUnary, .attributes = kAY},
    {.name = "pd_op.print", .layout = fixed(kPrintIn, kOut, kL0), .attributes = kAPrint},
    {.name = "pd_op.prod", .layout = fixed(kXAxis, kOut), .attributes = kAKeepdimReduceAll},
    {.name = "pd_op.recv_v2",
     .layout = fixed(kEmpty, kOut),
     .attributes = kARecv,
     .traits = kReshardStep,
     .comm = Communication::Recv,
     .resultTypes = t::recvV2},
    {.name = "pd_op.reduce_scatter",
     .layout = kLinearUnary,
     .attributes = kARingNranks,
     .traits = kReshardStep,
     .comm = Communication::ReduceScatter,
     .resultTypes = t::reduceScatter},
    {.name = "pd_op.relu", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.reshape",
     .layout = fixed(kReshapeIn, kOutXShape, kL0),
     .attributes = kNoAttrs,
     .traits = kPassesGradient | kReshardStep,
     .resultTypes = t::reshape},
    {.name = "pd_op.rsqrt", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.scale",
     .layout = fixed(kScaleIn, kOut, kL0 | kL1),
     .attributes = kAScale,
     .linearWhen = t::scaleBiasIsZero},
    {.name = "pd_op.scale_",
     .layout = fixed(kScaleIn, kOut, kL0 | kL1, kFirstToFirst),
     .attributes = kAScale,
     .linearWhen = t::scaleBiasIsZero,
     .resultTypes = t::sameAsX},
    // x with rows replaced by updates: linear in x and updates together
    {.name = "pd_op.scatter", .layout = fixed(kScatterIn, kOut, kL0 | kL2), .attributes = kAOverwrite},
    // select_input(mask, inputs...) and select_output(mask, x): the branch the
    // one int32 of mask picks (old-IR conditional blocks)
    {.name = "pd_op.select_input",
     .layout = {.operands = kSelectInputIn, .results = kOut, .variadicOperands = true},
     .attributes = kNoAttrs},
    {.name = "pd_op.select_output",
     .layout = {.operands = kSelectOutputIn, .results = kOut, .variadicResults = true},
     .attributes = kNoAttrs},
    {.name = "pd_op.send_v2",
     .layout = fixed(kX, kEmpty, kL0),
     .attributes = kASend,
     .traits = kReshardStep,
     .comm = Communication::Send,
     .resultTypes = t::sendV2},
    // x with the box starts:ends:steps on axes set to values (broadcast):
    // linear in x and values together, not in the box's bounds
    {.name = "pd_op.set_value_with_tensor_",
     .layout = fixed(kSetValueWithTensorIn, kOut, kL0 | kL1, kFirstToFirst),
     .attributes = kASetValue,
     .resultTypes = t::sameAsX},
    {.name = "pd_op.shadow_feed", .layout = kLinearUnary, .attributes = kNoAttrs},
    {.name = "pd_op.shape", .layout = fixed(kInput, kOut), .attributes = kNoAttrs},
    {.name = "pd_op.share_data_",
     .layout = fixed(kX, kOut, kL0, kFirstToFirst),
     .attributes = kNoAttrs,
     .traits = kReshardStep},
    {.name = "pd_op.sigmoid", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.sign", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.sin", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.slice",
     .layout = fixed(kSliceIn, kOut, kL0),
     .attributes = kASlice,
     .traits = kReshardStep,
     .resultTypes = t::slice},
    {.name = "pd_op.softmax", .layout = kUnary, .attributes = kAAxis},
    {.name = "pd_op.split",
     .layout = fixed(kSplitIn, kOut, kL0),
     .attributes = kNoAttrs,
     .traits = kReshardStep,
     .resultTypes = t::split},
    {.name = "pd_op.split_with_num",
     .layout = fixed(kXAxis, kOut, kL0),
     .attributes = kANum,
     .traits = kReshardStep,
     .resultTypes = t::splitWithNum},
    {.name = "pd_op.sqrt", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.square", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.squeeze", .layout = fixed(kXAxis, kOutXShape, kL0), .attributes = kNoAttrs},
    {.name = "pd_op.stack", .layout = kLinearUnary, .attributes = kAAxis},
    {.name = "pd_op.subtract", .layout = fixed(kXY, kOut, kL0 | kL1), .attributes = kNoAttrs},
    {.name = "pd_op.sum", .layout = fixed(kXAxis, kOut, kL0), .attributes = kADtypeKeepdim},
    {.name = "pd_op.tanh", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.tile", .layout = fixed(kTileIn, kOut, kL0), .attributes = kNoAttrs},
    {.name = "pd_op.transpose",
     .layout = kLinearUnary,
     .attributes = kAPerm,
     .traits = kReshardStep,
     .resultTypes = t::transpose},
    {.name = "pd_op.tril", .layout = kLinearUnary, .attributes = kADiagonal},
    {.name = "pd_op.triu", .layout = kLinearUnary, .attributes = kADiagonal},
    {.name = "pd_op.uniform", .layout = fixed(kUniformIn, kOut), .attributes = kAUniform},
    {.name = "pd_op.unsqueeze", .layout = fixed(kXAxis, kOutXShape, kL0), .attributes = kNoAttrs},
    // linear in x and y together
    {.name = "pd_op.where", .layout = fixed(kWhereIn, kOut, kL1 | kL2), .attributes = kNoAttrs},
    {.name = "pd_op.while",
     .layout = {.operands = kWhileIn, .results = kOut, .variadicOperands = true, .variadicResults = true},
     .attributes = kNoAttrs,
     .regionSyntax = RegionSyntax::While,
     .regionRun = RegionRun::While},
    // The transformer ops (issue 30); a lookup is linear in its table
    {.name = "pd_op.c_embedding", .layout = fixed(kCEmbeddingIn, kOut, kL0), .attributes = kCEmbeddingAttrs},
    {.name = "pd_op.embedding", .layout = fixed(kEmbeddingIn, kOut, kL1), .attributes = kEmbeddingAttrs},
    // dropout: with its mask fixed, linear in x
    {.name = "pd_op.dropout", .layout = fixed(kDropoutIn, kDropoutOut, kL0), .attributes = kDropoutAttrs},
    {.name = "pd_op.flash_attn", .layout = fixed(kFlashAttnIn, kFlashAttnOut), .attributes = kFlashAttnAttrs},
    // rope: linear in each of q, k, v
    {.name = "pd_op.fused_rotary_position_embedding",
     .layout = fixed(kRopeIn, kRopeOut, kL0 | kL1 | kL2),
     .attributes = kRopeAttrs},
    {.name = "pd_op.rms_norm", .layout = fixed(kRmsNormIn, kRmsNormOut), .attributes = kRmsNormAttrs},
    // silu(x); swiglu(x, y?): without y, x's last axis halved
    {.name = "pd_op.silu", .layout = kUnary, .attributes = kNoAttrs},
    {.name = "pd_op.swiglu", .layout = fixed(kXY, kOut), .attributes = kNoAttrs},

    // pd_op, backward: linear in the incoming gradient
    {.name = "pd_op.add_grad", .layout = fixed(kXYOutGrad, kXYGrad, kL2), .attributes = kAAxis},
    {.name = "pd_op.cross_entropy_with_softmax_grad",
     .layout = fixed(kCrossEntropyGradIn, kInputGrad, kL2),
     .attributes = kACrossEntropy},
    {.name = "pd_op.exp_grad", .layout = fixed(kOutOutGrad, kXGrad, kL1), .attributes = kNoAttrs},
    {.name = "pd_op.gelu_grad", .layout = fixed(kXOutGrad, kXGrad, kL1), .attributes = kAApproximate},
    {.name = "pd_op.layer_norm_grad",
     .layout = fixed(kLayerNormGradIn, kLayerNormGradOut, kL5),
     .attributes = kALayerNorm},
    {.name = "pd_op.matmul_grad", .layout = fixed(kXYOutGrad, kXYGrad, kL2), .attributes = kATransposeXY},
    {.name = "pd_op.mean_grad", .layout = fixed(kXOutGrad, kXGrad, kL1), .attributes = kAAxisKeepdimReduceAll},
    {.name = "pd_op.relu_grad", .layout = fixed(kOutOutGrad, kXGrad, kL1), .attributes = kNoAttrs},
    {.name = "pd_op.reshape_grad", .layout = fixed(kXOutGrad, kXGrad, kL1), .attributes = kNoAttrs},
    {.name = "pd_op.sigmoid_grad", .layout = fixed(kOutOutGrad, kXGrad, kL1), .attributes = kNoAttrs},
    {.name = "pd_op.softmax_grad", .layout = fixed(kOutOutGrad, kXGrad, kL1), .attributes = kAAxis},
    {.name = "pd_op.sqrt_grad", .layout = fixed(kOutOutGrad, kXGrad, kL1), .attributes = kNoAttrs},
    // 2·x·out_grad: linear in each with the other fixed
    {.name = "pd_op.square_grad", .layout = fixed(kXOutGrad, kXGrad, kL0 | kL1), .attributes = kNoAttrs},
    {.name = "pd_op.subtract_grad", .layout = fixed(kXYOutGrad, kXYGrad, kL2), .attributes = kAAxis},
    {.name = "pd_op.tanh_grad", .layout = fixed(kOutOutGrad, kXGrad, kL1), .attributes = kNoAttrs},
    {.name = "pd_op.cast_grad", .layout = fixed(kXOutGrad, kXGrad, kL1), .attributes = kNoAttrs},
    // out_grad / y and -out_grad·out / y: linear in out_grad only
    {.name = "pd_op.divide_grad", .layout = fixed(kXYOutOutGrad, kXYGrad, 1u << 3), .attributes = kAAxis},
    {.name = "pd_op.multiply_grad", .layout = fixed(kXYOutGrad, kXYGrad, kL2), .attributes = kAAxis},
    {.name = "pd_op.sum_grad", .layout = fixed(kXOutGradAxis, kXGrad, kL1), .attributes = kAKeepdimReduceAll},
    // Grads of the math, reduction and shape ops of real programs (issue 29)
    {.name = "pd_op.abs_grad", .layout = fixed(kXOutGrad, kXGrad, kL1), .attributes = kNoAttrs},
    {.name = "pd_op.batch_norm_grad",
     .layout = fixed(kBatchNormGradIn, kBatchNormGradOut, 1u << 8),
     .attributes = kABatchNormGrad},
    {.name = "pd_op.clip_grad", .layout = fixed(kClipGradIn, kXGrad, kL1), .attributes = kNoAttrs},
    {.name = "pd_op.concat_grad", .layout = fixed(kConcatGradIn, kXGrad, kL1), .attributes = kNoAttrs},
    {.name = "pd_op.conv2d_grad", .layout = fixed(kConvGradIn, kConvGradOut, kL2), .attributes = kAConv},
    {.name = "pd_op.cos_grad", .layout = fixed(kXOutGrad, kXGrad, kL1), .attributes = kNoAttrs},
    {.name = "pd_op.cumsum_grad", .layout = fixed(kXOutGradAxis, kXGrad, kL1), .attributes = kACum},
    {.name = "pd_op.expand_grad", .layout = fixed(kExpandGradIn, kXGrad, kL1), .attributes = kNoAttrs},
    {.name = "pd_op.flatten_grad", .layout = fixed(kXOutGrad, kXGrad, kL1), .attributes = kNoAttrs},
    {.name = "pd_op.floor_grad", .layout = fixed(kOutGrad, kXGrad, kL0), .attributes = kNoAttrs},
    {.name = "pd_op.gather_grad", .layout = fixed(kXIndexOutGradAxis, kXGrad, kL2), .attributes = kNoAttrs},
    {.name = "pd_op.gather_nd_grad", .layout = fixed(kXIndexOutGrad, kXGrad, kL2), .attributes = kNoAttrs},
    {.name = "pd_op.index_select_grad", .layout = fixed(kXIndexOutGrad, kXGrad, kL2), .attributes = kAAxis},
    {.name = "pd_op.log_grad", .layout = fixed(kXOutGrad, kXGrad, kL1), .attributes = kNoAttrs},
    {.name = "pd_op.logsumexp_grad", .layout = fixed(kXOutOutGrad, kXGrad, kL2), .attributes = kAAxisKeepdimReduceAll},
    {.name = "pd_op.max_grad", .layout = fixed(kXOutOutGradAxis, kXGrad, kL2), .attributes = kAKeepdimReduceAll},
    {.name = "pd_op.maximum_grad", .layout = fixed(kXYOutGrad, kXYGrad, kL2), .attributes = kNoAttrs},
    {.name = "pd_op.min_grad", .layout = fixed(kXOutOutGradAxis, kXGrad, kL2), .attributes = kAKeepdimReduceAll},
    {.name = "pd_op.minimum_grad", .layout = fixed(kXYOutGrad, kXYGrad, kL2), .attributes = kNoAttrs},
    {.name = "pd_op.pool2d_grad", .layout = fixed(kPoolGradIn, kXGrad, kL2), .attributes = kAPool},
    {.name = "pd_op.pow_grad", .layout = fixed(kXOutGrad, kXGrad, kL1), .attributes = kAY},
    {.name = "pd_op.prod_grad", .layout = fixed(kXOutOutGradAxis, kXGrad, kL2), .attributes = kAKeepdimReduceAll},
    {.name = "pd_op.rsqrt_grad", .layout = fixed(kOutOutGrad, kXGrad, kL1), .attributes = kNoAttrs},
    {.name = "pd_op.scatter_grad", .layout = fixed(kScatterGradIn, kScatterGradOut, kL2), .attributes = kAOverwrite},
    // sign_grad(out_grad) -> x_grad: zeros (backward.yaml invokes scale by 0)
    {.name = "pd_op.sign_grad", .layout = fixed(kOutGrad, kXGrad, kL0), .attributes = kNoAttrs},
    {.name = "pd_op.slice_grad", .layout = fixed(kSliceGradIn, kInputGrad, kL1), .attributes = kASlice},
    {.name = "pd_op.sin_grad", .layout = fixed(kXOutGrad, kXGrad, kL1), .attributes = kNoAttrs},
    // split_grad(out_grad, axis) -> x_grad: the vec out_grad joined along axis
    {.name = "pd_op.split_grad", .layout = fixed(kSplitGradIn, kXGrad, kL0), .attributes = kNoAttrs},
    {.name = "pd_op.squeeze_grad", .layout = fixed(kXOutGradAxis, kXGrad, kL1), .attributes = kNoAttrs},
    // stack_grad(x, out_grad){axis} -> x_grad, a vec with one gradient per x
    {.name = "pd_op.stack_grad", .layout = fixed(kXOutGrad, kXGrad, kL1), .attributes = kAAxis},
    {.name = "pd_op.tile_grad", .layout = fixed(kTileGradIn, kXGrad, kL1), .attributes = kNoAttrs},
    // transpose_grad(out_grad){perm}: out_grad transposed by perm's inverse
    {.name = "pd_op.transpose_grad", .layout = fixed(kOutGrad, kXGrad, kL0), .attributes = kAPerm},
    {.name = "pd_op.tril_grad", .layout = fixed(kOutGrad, kXGrad, kL0), .attributes = kADiagonal},
    {.name = "pd_op.triu_grad", .layout = fixed(kOutGrad, kXGrad, kL0), .attributes = kADiagonal},
    {.name = "pd_op.unsqueeze_grad", .layout = fixed(kXOutGradAxis, kXGrad, kL1), .attributes = kNoAttrs},
    // where_grad(condition, x, y, out_grad): x and y only for their shapes
    {.name = "pd_op.where_grad", .layout = fixed(kWhereGradIn, kXYGrad, 1u << 3), .attributes = kNoAttrs},
    // Grads of the transformer ops (issue 30): a table's grad is linear in out_grad
    {.name = "pd_op.c_embedding_grad",
     .layout = fixed(kCEmbeddingGradIn, kWeightGrad, kL2),
     .attributes = kCEmbeddingGradAttrs},
    {.name = "pd_op.embedding_grad",
     .layout = fixed(kEmbeddingGradIn, kWeightGrad, kL2),
     .attributes = kEmbeddingGradAttrs},
    {.name = "pd_op.dropout_grad", .layout = fixed(kDropoutGradIn, kXGrad, kL1), .attributes = kDropoutGradAttrs},
    {.name = "pd_op.flash_attn_grad",
     .layout = fixed(kFlashAttnGradIn, kFlashAttnGradOut, 1u << 7),
     .attributes = kFlashAttnGradAttrs},
    {.name = "pd_op.fused_rotary_position_embedding_grad",
     .layout = fixed(kRopeGradIn, kRopeGradOut, 1u << 3 | 1u << 4 | kL5),
     .attributes = kRopeAttrs},
    {.name = "pd_op.rms_norm_grad",
     .layout = fixed(kRmsNormGradIn, kRmsNormGradOut, 1u << 6),
     .attributes = kRmsNormGradAttrs},
    {.name = "pd_op.silu_grad", .layout = fixed(kXOutOutGrad, kXGrad, kL2), .attributes = kNoAttrs},
    {.name = "pd_op.swiglu_grad", .layout = fixed(kXYOutGrad, kXYGrad, kL2), .attributes = kNoAttrs},

    // pd_op, optimizers (in place; param - lr·grad is linear in nothing)
    {.name = "pd_op.adam_",
     .layout = kAdamLayouts[0],
     .olderLayouts = std::span(kAdamLayouts).subspan(1),
     .attributes = kAAdam},
    {.name = "pd_op.adamw_",
     .layout = kAdamLayouts[0],
     .olderLayouts = std::span(kAdamLayouts).subspan(1),
     .attributes = kAAdamw},
    {.name = "pd_op.lamb_", .layout = fixed(std::span(kAdamIn, 9), kLambOut, 0, kAdam), .attributes = kALamb},
    {.name = "pd_op.momentum_", .layout = fixed(kMomentumIn, kMomentumOut, 0, kMomentum), .attributes = kAMomentum},
    {.name = "pd_op.sgd_", .layout = fixed(kSgdIn, kSgdOut, 0, kSgd), .attributes = kASgd},
};

// Open addressing over a power of two at most a quarter full: a lookup is
// one hash and, mostly, one compare; an unknown name mostly hits an empty
// slot at once.
constexpr size_t kSlots = 1024;
constexpr uint16_t kEmptySlot = 0xFFFF;
static_assert(std::size(kOps) * 4 <= kSlots, "grow kSlots with the table");

/// Eight bytes of `s` from `at` (zeros past its end), little-endian: at run
/// time one load where they are all there.
constexpr uint64_t load8(std::string_view s, size_t at) {
  if (!std::is_constant_evaluated() && std::endian::native == std::endian::little && at + 8 <= s.size()) {
    uint64_t v;
    std::memcpy(&v, s.data() + at, 8);
    return v;
  }
  uint64_t v = 0;
  for (size_t i = 0; i < 8 && at + i < s.size(); ++i) v |= uint64_t{static_cast<unsigned char>(s[at + i])} << (8 * i);
  return v;
}

/// The length and the first and last eight bytes, mixed: op names share
/// prefixes (`pd_op.`), rarely length and both ends.
constexpr uint32_t hashName(std::string_view s) {
  uint64_t tail = s.size() > 8 ? load8(s, s.size() - 8) : 0;
  uint64_t h = (load8(s, 0) * 0x9E3779B97F4A7C15ull) ^ (tail * 0xC2B2AE3D27D4EB4Full) ^ s.size();
  return static_cast<uint32_t>(h >> 32) ^ static_cast<uint32_t>(h);
}

consteval std::array<uint16_t, kSlots> buildSlots() {
  std::array<uint16_t, kSlots> slots{};
  for (uint16_t& s : slots) s = kEmptySlot;
  for (size_t i = 0; i < std::size(kOps); ++i) {
    size_t at = hashName(kOps[i].name) & (kSlots - 1);
    for (; slots[at] != kEmptySlot; at = (at + 1) & (kSlots - 1))
      if (kOps[slots[at]].name == kOps[i].name) throw "an op is in the table twice";
    slots[at] = static_cast<uint16_t>(i);
  }
  return slots;
}

constexpr std::array<uint16_t, kSlots> kSlotOf = buildSlots();

}  // namespace

std::span<const OpInfo> opTable() { return kOps; }

const OpInfo* lookupOp(std::string_view name) {
  for (size_t at = hashName(name) & (kSlots - 1);; at = (at + 1) & (kSlots - 1)) {
    uint16_t s = kSlotOf[at];
    if (s == kEmptySlot) return nullptr;
    if (bytesEqual(kOps[s].name, name)) return &kOps[s];
  }
}

const OpInfo* lookupOp(const Operation& op) { return lookupOp(op.name()); }

const OpInfo* OpInfoCache::lookupSlow(std::string_view name) {
  if (name.empty()) return lookupOp(name);  // no address to key it by
  auto [answer, fresh] = byName_.tryEmplace(name.data());
  if (fresh || answer->nameSize != name.size()) *answer = {name.size(), lookupOp(name)};
  recent_[slotOf(name.data())] = {name.data(), name.size(), answer->info};
  return answer->info;
}

}  // namespace pir::core
