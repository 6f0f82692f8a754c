//===- kernel_dtypes_test.cpp - the dtypes kernels list, against their code -===//
//
// Every kernel registers the dtypes it accepts (runtime/kernel.h, DtypeSet;
// pir-run --list-kernels prints them). For a sample of kernels of each
// family this runs the kernel on every runnable dtype: a listed one must
// run, an unlisted one must fail, so the list says what the code does.
//
//===----------------------------------------------------------------------===//
#include <string>
#include <vector>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {

constexpr DataType kRunnable[] = {DataType::F32, DataType::F64, DataType::BF16,
                                  DataType::I32, DataType::I64, DataType::Bool};

/// Paddle's spelling of a dtype in a `(pd_op.DataType)` attribute.
std::string paddleName(DataType dt) {
  switch (dt) {
    case DataType::F32:
      return "float32";
    case DataType::F64:
      return "float64";
    case DataType::BF16:
      return "bfloat16";
    case DataType::I32:
      return "int32";
    case DataType::I64:
      return "int64";
    default:
      return "bool";
  }
}

/// `shape` of dtype `dt` holding 1, 0, 1, 0, ... (valid in every dtype,
/// nonzero enough for logs and divisions to run).
Tensor ones(DataType dt, Shape shape, bool alternate = false) {
  Tensor t = Tensor::allocate(DataType::F64, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<double>()[i] = alternate && i % 2 ? 0.0 : 1.0;
  return kernels::castTensor(t, dt);
}
Tensor i64(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::I64, std::move(shape), v); }

/// One kernel run in dtype `dt`: its attributes and operands.
struct Call {
  std::string attrs;
  std::vector<Tensor> inputs;
  size_t results = 1;
  std::string resultType = "builtin.tensor<1xf32>";  // the kernels read no result type but arange's length
};

struct Sample {
  const char* op;
  std::function<Call(DataType)> call;
};

const std::vector<Sample>& samples() {
  static const std::vector<Sample> s = {
      // binary and compare
      {"pd_op.add",
       [](DataType dt) {
         return Call{"", {ones(dt, {2, 3}), ones(dt, {3})}};
       }},
      {"pd_op.add_grad",
       [](DataType dt) {
         return Call{"axis:(Int32)-1", {ones(dt, {2, 3}), ones(dt, {3}), ones(dt, {2, 3})}, 2};
       }},
      {"pd_op.divide_grad",
       [](DataType dt) {
         return Call{"axis:(Int32)-1", {ones(dt, {3}), ones(dt, {3}), ones(dt, {3}), ones(dt, {3})}, 2};
       }},
      {"pd_op.less_than",
       [](DataType dt) {
         return Call{"", {ones(dt, {2, 3}), ones(dt, {3}, true)}};
       }},
      {"pd_op.maximum_grad",
       [](DataType dt) {
         return Call{"", {ones(dt, {2, 3}), ones(dt, {3}, true), ones(dt, {2, 3})}, 2};
       }},
      {"pd_op.where_grad",
       [](DataType dt) {
         return Call{"", {ones(DataType::Bool, {3}, true), ones(dt, {3}), ones(dt, {3}), ones(dt, {3})}, 2};
       }},
      // unary and math
      {"pd_op.exp",
       [](DataType dt) {
         return Call{"", {ones(dt, {4})}};
       }},
      {"pd_op.abs_grad",
       [](DataType dt) {
         return Call{"", {ones(dt, {4}, true), ones(dt, {4})}};
       }},
      {"pd_op.scale",
       [](DataType dt) {
         return Call{"scale:(Float)2,bias:(Float)1", {ones(dt, {4})}};
       }},
      {"pd_op.sign",
       [](DataType dt) {
         return Call{"", {ones(dt, {4}, true)}};
       }},
      {"pd_op.cast",
       [](DataType dt) {
         return Call{"dtype:(pd_op.DataType)float32", {ones(dt, {4})}};
       }},
      // reductions and scans
      {"pd_op.sum",
       [](DataType dt) {
         return Call{"keepdim:false", {ones(dt, {2, 3}), i64({1}, {1})}};
       }},
      {"pd_op.mean",
       [](DataType dt) {
         return Call{"axis:(pd_op.IntArray)[1],keepdim:false", {ones(dt, {2, 3})}};
       }},
      {"pd_op.max",
       [](DataType dt) {
         return Call{"keepdim:false", {ones(dt, {2, 3}), i64({1}, {0})}};
       }},
      {"pd_op.cumsum",
       [](DataType dt) {
         return Call{"", {ones(dt, {2, 3}), i64({}, {1})}};
       }},
      {"pd_op.argmax",
       [](DataType dt) {
         return Call{"keepdims:false,flatten:false,dtype:(pd_op.DataType)int64", {ones(dt, {2, 3}), i64({1}, {1})}};
       }},
      // matmul, norms, conv
      {"pd_op.matmul",
       [](DataType dt) {
         return Call{"", {ones(dt, {2, 3}), ones(dt, {3, 2})}};
       }},
      {"pd_op.softmax",
       [](DataType dt) {
         return Call{"axis:(Int32)-1", {ones(dt, {2, 3})}};
       }},
      {"pd_op.conv2d",
       [](DataType dt) {
         return Call{
             "strides:[(Int32)1,(Int32)1],paddings:[(Int32)0,(Int32)0],dilations:[(Int32)1,(Int32)1],"
             "groups:(Int32)1,padding_algorithm:\"EXPLICIT\",data_format:\"NCHW\"",
             {ones(dt, {1, 1, 3, 3}), ones(dt, {1, 1, 2, 2})}};
       }},
      {"pd_op.pool2d",
       [](DataType dt) {
         return Call{
             "strides:[(Int32)1,(Int32)1],paddings:[(Int32)0,(Int32)0],ceil_mode:false,exclusive:true,"
             "data_format:\"NHWC\",pooling_type:\"max\",global_pooling:false,adaptive:false,"
             "padding_algorithm:\"EXPLICIT\"",
             {ones(dt, {1, 3, 3, 2}), i64({2}, {2, 2})}};
       }},
      // data movement and indexing
      {"pd_op.transpose",
       [](DataType dt) {
         return Call{"perm:[(Int32)1,(Int32)0]", {ones(dt, {2, 3})}};
       }},
      {"pd_op.transpose_grad",
       [](DataType dt) {
         return Call{"perm:[(Int32)1,(Int32)0]", {ones(dt, {3, 2})}};
       }},
      {"pd_op.slice_grad",
       [](DataType dt) {
         return Call{"axes:[(Int64)1],decrease_axis:[],infer_flags:[(Int64)1]",
                     {ones(dt, {2, 3}), ones(dt, {2, 1}), i64({1}, {1}), i64({1}, {2})}};
       }},
      {"pd_op.gather",
       [](DataType dt) {
         return Call{"", {ones(dt, {3, 2}), i64({2}, {2, 0}), i64({}, {0})}};
       }},
      {"pd_op.gather_grad",
       [](DataType dt) {
         return Call{"", {ones(dt, {3, 2}), i64({2}, {2, 0}), ones(dt, {2, 2}), i64({}, {0})}};
       }},
      {"pd_op.tile_grad",
       [](DataType dt) {
         return Call{"repeat_times:(pd_op.IntArray)[2]", {ones(dt, {3}), ones(dt, {6}), i64({1}, {2})}};
       }},
      {"pd_op.one_hot",
       [](DataType dt) {
         return Call{"", {ones(dt, {3}, true), i64({}, {2})}};
       }},
      // the transformer ops (issue 30): the table's or the activations' dtype
      {"pd_op.embedding",
       [](DataType dt) {
         return Call{"padding_idx:(Int64)-1", {i64({2}, {1, 0}), ones(dt, {2, 3})}};
       }},
      {"pd_op.c_embedding_grad",
       [](DataType dt) {
         return Call{"start_index:(Int64)1", {ones(dt, {2, 3}), i64({2}, {1, 2}), ones(dt, {2, 3})}};
       }},
      {"pd_op.rms_norm",
       [](DataType dt) {
         return Call{"epsilon:(Float)1e-06,begin_norm_axis:(Int32)1", {ones(dt, {2, 3}), {}, {}, ones(dt, {3}), {}}, 3};
       }},
      {"pd_op.fused_rotary_position_embedding",
       [](DataType dt) {
         return Call{"use_neox_rotary_style:true", {ones(dt, {1, 2, 1, 2}), {}, {}, {}, {}, {}}, 3};
       }},
      {"pd_op.swiglu",
       [](DataType dt) {
         return Call{"", {ones(dt, {2, 4}), {}}};
       }},
      {"pd_op.dropout",
       [](DataType dt) {
         return Call{"p:(Float)0.5,is_test:true,mode:\"upscale_in_train\"", {ones(dt, {4}), {}}, 2};
       }},
      {"pd_op.flash_attn",
       [](DataType dt) {
         return Call{
             "causal:true", {ones(dt, {1, 2, 1, 2}), ones(dt, {1, 2, 1, 2}), ones(dt, {1, 2, 1, 2}), {}, {}}, 4};
       }},
      // creation: the dtype is the result's
      {"pd_op.full",
       [](DataType dt) {
         return Call{"dtype:(pd_op.DataType)" + paddleName(dt) + ",shape:(pd_op.IntArray)[1],value:(Float)1", {}};
       }},
      {"pd_op.full_int_array",
       [](DataType dt) {
         return Call{"dtype:(pd_op.DataType)" + paddleName(dt) + ",value:[(Int64)3]", {}};
       }},
      {"pd_op.arange",
       [](DataType dt) {
         return Call{"dtype:(pd_op.DataType)" + paddleName(dt),
                     {i64({1}, {0}), i64({1}, {3}), i64({1}, {1})},
                     1,
                     "builtin.tensor<3xf32>"};
       }},
  };
  return s;
}

}  // namespace

TEST_CASE("a kernel runs on every dtype it lists and fails on the others", "[kernel][dtypes]") {
  const KernelRegistry& reg = kernelRegistry();
  size_t refusals = 0;
  for (const Sample& sample : samples()) {
    const pir::core::OpInfo* info = pir::core::lookupOp(sample.op);
    REQUIRE(info);
    DtypeSet listed = reg.dtypesOf(info);
    INFO(sample.op << " lists [" << dtypeSetText(listed) << "]");
    REQUIRE(listed != 0);
    for (DataType dt : kRunnable) {
      Call c = sample.call(dt);
      KernelRun r(sample.op, c.attrs, c.inputs, std::vector<std::string>(c.results, c.resultType));
      INFO("dtype " << paddleName(dt) << ": " << r.status.message());
      if (listed & dtypeBit(dt)) {
        CHECK(r.status.isOk());
      } else {
        CHECK_FALSE(r.status.isOk());
        ++refusals;
      }
    }
  }
  CHECK(refusals >= 15);  // most samples refuse at least one dtype
}

TEST_CASE("every kernel lists its dtypes", "[kernel][dtypes]") {
  const KernelRegistry& reg = kernelRegistry();
  for (std::string_view name : reg.names()) {
    INFO(name);
    CHECK(reg.dtypesOf(pir::core::lookupOp(name)) != 0);
  }
  CHECK(dtypeSetText(kFloats) == "f32 f64 bf16");
  CHECK(dtypeSetText(kAllDtypes) == "f32 f64 bf16 i32 i64 bool");
  CHECK(dtypeSetText(kInts) == "i32 i64");
}
