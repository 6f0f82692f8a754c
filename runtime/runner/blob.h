//===- blob.h - the bytes a rank's process sends rank 0 ----------*- C++ -*-===//
//
// Under mpirun every rank's results reach rank 0 as one blob
// (World::gatherToRoot): plain values, vectors of them, strings, tensors and
// tensor maps, written and read in the same order. A reader never reads
// past its bytes: a short or malformed blob makes ok() false.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "runtime/executor.h"

namespace pir::runtime::runner {

/// Writes values in order.
class BlobWriter {
 public:
  template <class T>
  requires std::is_trivially_copyable_v<T>
  void put(const T& v) { bytes_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  template <class T>
  requires std::is_trivially_copyable_v<T>
  void put(const std::vector<T>& v) {
    put(uint64_t(v.size()));
    if (!v.empty()) bytes_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  void put(const std::string& s);
  void put(const Tensor& t);
  void put(const std::vector<Tensor>& v);
  void put(const TensorMap& m);
  void put(const std::map<int64_t, uint64_t>& m);
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

/// Reads what a BlobWriter wrote, in the same order. ok(): every byte read,
/// none missing (a short or malformed blob makes every later read a no-op).
class BlobReader {
 public:
  explicit BlobReader(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  requires std::is_trivially_copyable_v<T>
  void get(T& v) {
    if (need(sizeof v)) std::memcpy(&v, next(sizeof v), sizeof v);
  }
  template <class T>
  requires std::is_trivially_copyable_v<T>
  void get(std::vector<T>& v) {
    uint64_t n = 0;
    get(n);
    if (!ok_ || n > bytes_.size() / (sizeof(T) ? sizeof(T) : 1) || !need(n * sizeof(T))) return void(ok_ = false);
    v.resize(n);
    if (n) std::memcpy(v.data(), next(n * sizeof(T)), n * sizeof(T));
  }
  void get(std::string& s);
  void get(Tensor& t);
  void get(std::vector<Tensor>& v);
  void get(TensorMap& m);
  void get(std::map<int64_t, uint64_t>& m);
  bool ok() const { return ok_ && at_ == bytes_.size(); }

 private:
  bool need(size_t n) {
    if (ok_ && bytes_.size() - at_ >= n) return true;
    ok_ = false;
    return false;
  }
  const char* next(size_t n) {
    const char* p = bytes_.data() + at_;
    at_ += n;
    return p;
  }
  std::string_view bytes_;
  size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace pir::runtime::runner
