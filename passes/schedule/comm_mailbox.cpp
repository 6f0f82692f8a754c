//===- comm_mailbox.cpp - messages in flight, paired by message_key.h ------===//
#include "passes/schedule/comm_mailbox.h"

#include <algorithm>

namespace pir::passes::schedule {

namespace {

size_t mix(size_t h, uint64_t v) {
  return h ^ (std::hash<uint64_t>()(v) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
}

}  // namespace

size_t Mailbox::ChannelHash::operator()(const ChannelId& c) const {
  return mix(mix(std::hash<uint64_t>()(uint64_t(c.ring)), uint64_t(c.src)), uint64_t(c.dst));
}

size_t Mailbox::KeyHash::operator()(const core::MessageKey& k) const {
  return mix(std::hash<uint64_t>()(uint64_t(k.index)), uint64_t(k.microBatch));
}

const Message* Mailbox::post(const ChannelId& channel, Message m) {
  Channel& c = channels_[channel];
  if (m.key.ordered()) {
    c.ordered.push_back(std::move(m));
    return nullptr;
  }
  auto [it, added] = c.keyed.try_emplace(m.key, m);
  return added ? nullptr : &it->second;
}

std::optional<Taken> Mailbox::take(const ChannelId& channel, core::MessageKey key) {
  auto ch = channels_.find(channel);
  if (ch == channels_.end()) return std::nullopt;
  Channel& c = ch->second;
  if (key.ordered()) {
    if (c.ordered.empty()) return std::nullopt;
    Taken t{std::move(c.ordered.front())};
    c.ordered.pop_front();
    if (t.message.key.microBatch != key.microBatch) t.pairing = Pairing::OtherMicroBatch;
    return t;
  }
  auto it = c.keyed.find(key);
  if (it == c.keyed.end()) return std::nullopt;
  Taken t{std::move(it->second)};
  c.keyed.erase(it);
  return t;
}

std::optional<Taken> Mailbox::takeMispaired(const ChannelId& channel, core::MessageKey key) {
  auto ch = channels_.find(channel);
  if (ch == channels_.end()) return std::nullopt;
  Channel& c = ch->second;
  if (!key.ordered()) {
    if (c.ordered.empty()) return std::nullopt;
    Taken t{std::move(c.ordered.front()), Pairing::OneEndIndexed};
    c.ordered.pop_front();
    return t;
  }
  if (c.keyed.empty()) return std::nullopt;
  auto oldest = std::min_element(c.keyed.begin(), c.keyed.end(),
                                 [](const auto& a, const auto& b) { return a.second.seq < b.second.seq; });
  Taken t{std::move(oldest->second), Pairing::OneEndIndexed};
  c.keyed.erase(oldest);
  return t;
}

std::vector<Message> Mailbox::inFlight() const {
  std::vector<Message> out;
  for (const auto& [id, c] : channels_) {
    out.insert(out.end(), c.ordered.begin(), c.ordered.end());
    for (const auto& [key, m] : c.keyed) out.push_back(m);
  }
  std::sort(out.begin(), out.end(), [](const Message& a, const Message& b) { return a.seq < b.seq; });
  return out;
}

}  // namespace pir::passes::schedule
