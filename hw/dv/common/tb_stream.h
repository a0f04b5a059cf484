// The word streams of the cores (their doc pages): operand words on
// in_valid_i/in_ready_o, result words on out_valid_o with out_last_o on the
// last, and for the sparse cores positions on idx_valid_i/idx_ready_o. The
// counts of one operation with the checks on them, and the whole operation
// of a core with one operand stream (gf2x_sqr_k, gf2x_inv).
#ifndef BIKECO_TB_STREAM_H
#define BIKECO_TB_STREAM_H

#include <cstdint>

#include "tb_dut.h"
#include "tb_words.h"

namespace tb {

struct Streams {
  size_t n_in, n_out, n_idx;  // operand words, result words, positions expected
  uint64_t max_cycles;
  size_t in = 0, out = 0, idx = 0;
  uint64_t cycles = 0;  // edges since the start edge

  Streams(size_t words_in, size_t words_out, uint64_t max, size_t positions = 0)
      : n_in(words_in), n_out(words_out), n_idx(positions), max_cycles(max) {}

  // whether to offer a word (a position) at this edge: the core is ready and
  // some remain
  bool offer_in(bool ready) const { return ready && in < n_in; }
  bool offer_idx(bool ready) const { return ready && idx < n_idx; }

  // after an edge: what it took
  void edge(bool took_in, bool took_idx = false) {
    cycles++;
    if (took_in) in++;
    if (took_idx) idx++;
    if (cycles > max_cycles) die("timeout\n");
  }

  // the index of the result word out_valid_o shows after this edge
  size_t result() {
    if (out >= n_out) die("too many result words\n");
    return out++;
  }

  // after the last result word: every stream had its length
  void check_lengths() const {
    if (in != n_in || out != n_out || idx != n_idx)
      die("stream length: %zu positions, %zu words in, %zu out; expected %zu, %zu, %zu\n", idx, in,
          out, n_idx, n_in, n_out);
  }
};

// One operation of a core with an in_valid/in_ready operand stream and an
// out_valid/out_last result stream, started by the caller: feeds the n words
// of a (nq 64-bit words) as the core takes them, collects n result words into
// c, and returns the cycles to out_last. Ends the run on a wrong stream
// length or after max_cycles; the caller checks the core's state afterwards.
template <class T>
uint64_t stream_op(T *d, uint64_t *c, const uint64_t *a, size_t n, size_t nq, uint64_t max_cycles) {
  Streams s(n, n, max_cycles);
  for (;;) {
    bool take = s.offer_in(d->in_ready_o);
    if (take) tbw::put(d->in_data_i, a, s.in, nq);
    d->in_valid_i = take;
    tick(d);
    s.edge(take);
    if (d->out_valid_o) tbw::get(d->out_data_o, c, s.result());
    if (d->out_last_o) break;
  }
  s.check_lengths();
  d->in_valid_i = 0;
  tick(d);
  return s.cycles;
}

}  // namespace tb

#endif
