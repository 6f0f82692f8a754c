//===- buffer_cache.cpp - large tensor buffers kept for reuse -------------===//
#include "runtime/buffer_cache.h"

#include <cstdlib>
#include <list>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PIR_BUFFER_CACHE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define PIR_BUFFER_CACHE 0
#endif
#endif
#ifndef PIR_BUFFER_CACHE
#define PIR_BUFFER_CACHE 1
#endif

namespace pir::runtime {

struct BufferCache::Impl {
  using Block = std::pair<size_t, void*>;  // bytes, pointer
  mutable std::mutex mutex;
  std::list<Block> order;  // most recently kept first
  std::unordered_map<size_t, std::vector<std::list<Block>::iterator>> bySize;
  size_t kept = 0;
  size_t max = 0;

  void drop(std::list<Block>::iterator it) {  // under the mutex; the caller frees it->second
    auto& v = bySize[it->first];
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i] == it) {
        v.erase(v.begin() + std::ptrdiff_t(i));
        break;
      }
    kept -= it->first;
    order.erase(it);
  }
};

BufferCache::BufferCache(size_t maxBytes) : impl_(new Impl) { impl_->max = maxBytes; }

bool BufferCache::enabled() { return PIR_BUFFER_CACHE; }
BufferCache::~BufferCache() {
  clear();
  delete impl_;
}

BufferCache& BufferCache::instance() {
  static BufferCache* cache = new BufferCache();  // never destroyed: tensors may outlive static destructors
  return *cache;
}

void* BufferCache::allocate(size_t bytes) {
  if (PIR_BUFFER_CACHE && bytes >= kMinBytes) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    auto it = impl_->bySize.find(bytes);
    if (it != impl_->bySize.end() && !it->second.empty()) {
      auto block = it->second.back();
      void* p = block->second;
      impl_->drop(block);
      return p;
    }
  }
  return std::aligned_alloc(64, bytes);
}

void BufferCache::release(void* p, size_t bytes) {
  if (!PIR_BUFFER_CACHE || bytes < kMinBytes || bytes > impl_->max || !p) {
    std::free(p);
    return;
  }
  std::vector<void*> evicted;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->order.emplace_front(bytes, p);
    impl_->bySize[bytes].push_back(impl_->order.begin());
    impl_->kept += bytes;
    while (impl_->kept > impl_->max) {
      evicted.push_back(impl_->order.back().second);
      impl_->drop(std::prev(impl_->order.end()));
    }
  }
  for (void* e : evicted) std::free(e);
}

size_t BufferCache::keptBytes() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->kept;
}

void BufferCache::clear() {
  std::vector<void*> all;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    for (auto& [bytes, p] : impl_->order) all.push_back(p);
    impl_->order.clear();
    impl_->bySize.clear();
    impl_->kept = 0;
  }
  for (void* p : all) std::free(p);
}

}  // namespace pir::runtime
