//===- blob.cpp - the bytes a rank's process sends rank 0 -----------------===//
#include "runtime/runner/blob.h"

namespace pir::runtime::runner {

void BlobWriter::put(const std::string& s) {
  put(uint64_t(s.size()));
  bytes_ += s;
}

void BlobWriter::put(const Tensor& t) {
  put(int64_t(t.defined() ? int64_t(t.dtype()) : -1));
  if (!t.defined()) return;
  put(std::vector<int64_t>(t.shape().begin(), t.shape().end()));
  bytes_.append(static_cast<const char*>(t.raw()), t.bytes());
}

void BlobWriter::put(const std::vector<Tensor>& v) {
  put(uint64_t(v.size()));
  for (const Tensor& t : v) put(t);
}

void BlobWriter::put(const TensorMap& m) {
  put(uint64_t(m.size()));
  for (const auto& [name, t] : m) {
    put(name);
    put(t);
  }
}

void BlobWriter::put(const std::map<int64_t, uint64_t>& m) {
  put(uint64_t(m.size()));
  for (const auto& [k, v] : m) {
    put(k);
    put(v);
  }
}

void BlobReader::get(std::string& s) {
  uint64_t n = 0;
  get(n);
  if (!need(n)) return;
  s.assign(next(n), n);
}

void BlobReader::get(Tensor& t) {
  int64_t dtype = -1;
  get(dtype);
  if (!ok_ || dtype < 0) return;
  std::vector<int64_t> shape;
  get(shape);
  if (!ok_ || !isRunnable(core::DataType(dtype))) return void(ok_ = false);
  for (int64_t d : shape)
    if (d < 0) return void(ok_ = false);
  size_t bytes = size_t(numElements(shape)) * elementSize(core::DataType(dtype));
  if (!need(bytes)) return;
  t = Tensor::allocate(core::DataType(dtype), shape);
  std::memcpy(t.raw(), next(bytes), bytes);
}

void BlobReader::get(std::vector<Tensor>& v) {
  uint64_t n = 0;
  get(n);
  if (n > bytes_.size()) return void(ok_ = false);
  v.assign(n, Tensor());
  for (Tensor& t : v) get(t);
}

void BlobReader::get(TensorMap& m) {
  uint64_t n = 0;
  get(n);
  for (uint64_t i = 0; ok_ && i < n; ++i) {
    std::string name;
    get(name);
    get(m[name]);
  }
}

void BlobReader::get(std::map<int64_t, uint64_t>& m) {
  uint64_t n = 0;
  get(n);
  for (uint64_t i = 0; ok_ && i < n; ++i) {
    int64_t k = 0;
    get(k);
    get(m[k]);
  }
}

}  // namespace pir::runtime::runner
