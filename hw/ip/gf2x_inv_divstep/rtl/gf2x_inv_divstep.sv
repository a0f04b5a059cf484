// Inversion in GF(2)[x]/(x^R - 1) by Bernstein-Yang divsteps ("Fast
// constant-time gcd computation and modular inversion", TCHES 2019, section 6:
// the x-adic divstep on reversed polynomials and its transition matrices),
// batched K steps at a time over word-serial memories (doc/gf2x_inv_divstep.md).
//
// State: delta, f = 1 + x^R (x^R - 1 reversed), g = a reversed in R bits,
// and (v, r) = (0, x^s) kept mod x^R - 1. One batch:
//   1. K divsteps (S per cycle) on the low K bits of f and g give the 2 x 2
//      matrix M = (u v; q r) of polynomials of degree <= K, the product of
//      the scaled step matrices (x 0; g0 1) and (0 x; 1 1) (swap);
//   2. one pass over the words: f, g <- (u f + v g, q f + r g) / x^K and
//      v, r <- (u v + v r, q v + r r) mod x^R - 1; the bits of the products
//      above R wrap into word 0, written last.
// After B = ceil((2R - 1) / K) batches g = 0, f = 1 and v reversed in R bits
// is a^-1 (the start x^s of r absorbs the B K - (2R - 1) extra steps and
// the reversal's rotation). Every phase has a fixed length: constant time.
//
// Interface: a streams in (in_ready_o/in_valid_i, N words, bits above R - 1
// ignored), a^-1 streams out (out_valid_o/out_data_o, out_last_o on word
// N - 1, no back-pressure). Memories: f, g, v, r, N words of W bits each.
module gf2x_inv_divstep #(
  parameter int unsigned R = 12323,
  parameter int unsigned W = 32,
  parameter int unsigned K = 32,  // divsteps per batch (matrix degree)
  parameter int unsigned S = 4,   // divsteps per cycle
  // derived
  localparam int unsigned N     = (R + W - 1) / W,
  localparam int unsigned Rem   = R - (N - 1) * W,  // bits in word N - 1
  localparam int unsigned B     = (2 * R - 1 + K - 1) / K,
  localparam int unsigned Extra = B * K - (2 * R - 1),
  localparam int unsigned Shift = R - Extra - 1,  // r starts as x^Shift
  localparam int unsigned DW    = $clog2(2 * R + K + 2) + 1,  // t = delta - 1, signed
  localparam int unsigned CntW  = $clog2(N + 1),
  localparam int unsigned AW    = (N > 1) ? $clog2(N) : 1
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         start_i,
  output logic         busy_o,
  // operand stream
  output logic         in_ready_o,
  input  logic         in_valid_i,
  input  logic [W-1:0] in_data_i,
  // result stream
  output logic         out_valid_o,
  output logic [W-1:0] out_data_o,
  output logic         out_last_o
);

  // R is an odd prime in BIKE: never a multiple of W, so x^R lies in word N - 1
  if (K < 1 || K > W || S < 1 || (K % S) != 0 || Rem == W || N < 2) begin : gen_param_check
    $error("gf2x_inv_divstep: need 1 <= K <= W, S | K, R mod W != 0, R > W");
  end

  typedef logic [W+K-1:0] prod_t;

  // carry-less product of a word and a matrix entry
  function automatic prod_t clmul(logic [W-1:0] a, logic [K:0] b);
    prod_t p;
    p = '0;
    for (int i = 0; i <= K; i++) begin
      if (b[i]) p ^= prod_t'(a) << i;
    end
    return p;
  endfunction

  // bits i of W: Y[W + Rem - 1 - i] of Y = {hi, lo}; the word of a polynomial
  // reversed in R bits, from its words j (hi) and j - 1 (lo)
  function automatic logic [W-1:0] rev_word(logic [W-1:0] hi, logic [W-1:0] lo);
    logic [2*W-1:0] y;
    logic [W-1:0]   o;
    y = {hi, lo};
    for (int i = 0; i < W; i++) o[i] = y[W+Rem-1-i];
    return o;
  endfunction

  localparam logic [W-1:0] TopMask = {W{1'b1}} >> (W - Rem);  // bits 0 .. Rem - 1

  // ---------------------------------------------------------------------------
  // Control
  // ---------------------------------------------------------------------------
  logic            load, step, rd, last_slot, proc_pass, proc_out;
  logic            first, win, top, flush;
  logic [CntW-1:0] cnt, pj;
  logic [AW-1:0]   rd_addr, pprev;

  gf2x_inv_divstep_fsm #(
    .N      (N),
    .Steps  (K / S),
    .Batches(B)
  ) u_fsm (
    .clk_i,
    .rst_ni,
    .start_i,
    .in_valid_i,
    .in_ready_o,
    .busy_o,
    .load_o     (load),
    .cnt_o      (cnt),
    .step_o     (step),
    .rd_o       (rd),
    .rd_addr_o  (rd_addr),
    .last_slot_o(last_slot),
    .proc_pass_o(proc_pass),
    .proc_out_o (proc_out),
    .proc_j_o    (pj),
    .proc_first_o(first),
    .proc_win_o  (win),
    .proc_top_o  (top),
    .proc_flush_o(flush),
    .proc_prev_o (pprev)
  );

  // ---------------------------------------------------------------------------
  // Memories: f, g, v, r
  // ---------------------------------------------------------------------------
  logic          f_we, g_we, v_we, r_we;
  logic [AW-1:0] f_wa, g_wa, v_wa, r_wa;
  logic [W-1:0]  f_wd, g_wd, v_wd, r_wd, f_rd, g_rd, v_rd, r_rd;

  bike_ram_sdp #(.Width(W), .Depth(N)) u_mem_f (
    .clk_i, .we_i(f_we), .waddr_i(f_wa), .wdata_i(f_wd),
    .re_i(rd), .raddr_i(rd_addr), .rdata_o(f_rd)
  );
  bike_ram_sdp #(.Width(W), .Depth(N)) u_mem_g (
    .clk_i, .we_i(g_we), .waddr_i(g_wa), .wdata_i(g_wd),
    .re_i(rd), .raddr_i(rd_addr), .rdata_o(g_rd)
  );
  bike_ram_sdp #(.Width(W), .Depth(N)) u_mem_v (
    .clk_i, .we_i(v_we), .waddr_i(v_wa), .wdata_i(v_wd),
    .re_i(rd), .raddr_i(rd_addr), .rdata_o(v_rd)
  );
  bike_ram_sdp #(.Width(W), .Depth(N)) u_mem_r (
    .clk_i, .we_i(r_we), .waddr_i(r_wa), .wdata_i(r_wd),
    .re_i(rd), .raddr_i(rd_addr), .rdata_o(r_rd)
  );

  // ---------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------
  logic [DW-1:0] t_d, t_q;  // t = delta - 1: delta > 0 is t's sign bit clear
  logic [K-1:0]  fw_d, fw_q, gw_d, gw_q;              // low K bits of f, g
  logic [K:0]    mu_d, mu_q, mv_d, mv_q, mq_d, mq_q, mr_d, mr_q;  // M
  logic [K-1:0]  cf_d, cf_q, cg_d, cg_q, cv_d, cv_q, cr_d, cr_q;  // carries
  logic [W-1:0]  pf_d, pf_q, pg_d, pg_q;  // f, g of the previous slot (before / x^K)
  logic [W-1:0]  v0_d, v0_q, r0_d, r0_q;  // word 0 of v, r, written last
  logic [W-1:0]  prev_d, prev_q;          // previous operand word / v word (reversal)

  // ---------------------------------------------------------------------------
  // S divsteps on the windows (one batch: K / S cycles from M = 1)
  // ---------------------------------------------------------------------------
  // A step swaps if t >= 0 and g(0) = 1, then t <- ~t, else t <- t + 1. The
  // decisions must not wait for t's carry chain: t_i (after i steps) is t_q or
  // ~t_q plus a constant in [-S, S], so its sign follows from t_q's sign and
  // from whether t_q equals one of the few values near zero. t_d itself is
  // one of 2^S sums of t_q, computed side by side and picked by the swaps.
  logic [K-1:0]  st_fw, st_gw;
  logic [K:0]    st_u, st_v, st_q, st_r;
  logic [S-1:0]  st_swap;              // step i swapped
  logic          neg;                  // t_i < 0
  logic [S:1]    eq_neg, eq_neg_n;     // [j]: t_i == -j
  logic [S-1:0]  eq_pos, eq_pos_n;     // [j]: t_i == j
  logic [DW-1:0] t_after [2**S];       // t after S steps, by swap pattern

  // t after S steps of swap pattern p is (flip ? ~t : t) + k: a step adds 1
  // to k, a swap turns x + k into ~x - k
  function automatic int pattern_k(int unsigned p);
    int k;
    k = 0;
    for (int i = 0; i < S; i++) k = p[i] ? -k : k + 1;
    return k;
  endfunction

  for (genvar p = 0; p < 2 ** S; p++) begin : gen_t_after
    localparam bit Flip = ($countones(p) % 2) == 1;
    localparam int Add  = pattern_k(p);
    assign t_after[p] = (Flip ? ~t_q : t_q) + DW'(Add);
  end

  always_comb begin
    st_fw = fw_q;
    st_gw = gw_q;
    // M is zero through a pass's slot N, the first step cycle of the next
    // batch (below), whose steps start from M = 1
    st_u  = mu_q | (K + 1)'(flush);
    st_v  = mv_q;
    st_q  = mq_q;
    st_r  = mr_q | (K + 1)'(flush);
    neg   = t_q[DW-1];
    for (int j = 1; j <= S; j++) eq_neg[j] = (t_q == DW'(-j));
    for (int j = 0; j < S; j++) eq_pos[j] = (t_q == DW'(j));
    for (int i = 0; i < S; i++) begin
      st_swap[i] = !neg && st_gw[0];
      if (st_swap[i]) begin
        // swap: delta <- 1 - delta, i.e. t <- -t - 1 = ~t (< 0, as t >= 0);
        // (f, g) <- (g, (g + f) / x); M <- (0 x; 1 1) M
        neg = 1'b1;
        for (int j = 1; j <= S; j++) eq_neg_n[j] = eq_pos[j-1];
        eq_pos_n = '0;
        {st_fw, st_gw} = {st_gw, (st_gw ^ st_fw) >> 1};
        {st_u, st_v, st_q, st_r} = {st_q << 1, st_r << 1, st_u ^ st_q, st_v ^ st_r};
      end else begin
        // delta <- delta + 1; (f, g) <- (f, (g + g0 f) / x); M <- (x 0; g0 1) M
        neg = neg && !eq_neg[1];
        for (int j = 1; j < S; j++) eq_neg_n[j] = eq_neg[j+1];
        eq_neg_n[S] = 1'b0;  // t_i == -S - 1 is never needed again
        eq_pos_n[0] = eq_neg[1];
        for (int j = 1; j < S; j++) eq_pos_n[j] = eq_pos[j-1];
        if (st_gw[0]) begin
          st_gw = st_gw ^ st_fw;
          st_q  = st_q ^ st_u;
          st_r  = st_r ^ st_v;
        end
        st_gw = st_gw >> 1;
        st_u  = st_u << 1;
        st_v  = st_v << 1;
      end
      eq_neg = eq_neg_n;
      eq_pos = eq_pos_n;
    end
  end

  // ---------------------------------------------------------------------------
  // The pass: slot j multiplies word j of f, g, v, r by M (slot N: zeros)
  // ---------------------------------------------------------------------------
  logic [W-1:0] xv;                  // the output's word of v (zero in slot N)
  prod_t        sf, sg, sv, sr;      // M times them
  logic [W-1:0] af, ag, av, ar;      // bits jW .. jW + W - 1 of the new f, g, v, r
  logic [W-1:0] nf, ng;              // word j - 1 of f, g divided by x^K
  logic [K-1:0] ov, orr;             // bits R .. R + K - 1 of the new v, r (wrap)

  always_comb begin
    xv = flush ? '0 : v_rd;
    // slot N reads nothing: M is zero there, so its products vanish without
    // a gate on the read data (a level behind a multi-block-RAM read's mux)
    sf = clmul(f_rd, mu_q) ^ clmul(g_rd, mv_q);
    sg = clmul(f_rd, mq_q) ^ clmul(g_rd, mr_q);
    sv = clmul(v_rd, mu_q) ^ clmul(r_rd, mv_q);
    sr = clmul(v_rd, mq_q) ^ clmul(r_rd, mr_q);
    af = sf[W-1:0] ^ (first ? W'(0) : W'(cf_q));
    ag = sg[W-1:0] ^ (first ? W'(0) : W'(cg_q));
    av = sv[W-1:0] ^ (first ? W'(0) : W'(cv_q));
    ar = sr[W-1:0] ^ (first ? W'(0) : W'(cr_q));
    nf  = W'({af, pf_q} >> K);
    ng  = W'({ag, pg_q} >> K);
    ov  = K'({sv[W+K-1:W], av} >> Rem);
    orr = K'({sr[W+K-1:W], ar} >> Rem);
  end

  // ---------------------------------------------------------------------------
  // Next state and memory writes
  // ---------------------------------------------------------------------------
  logic [W-1:0] in_word, g_in;

  always_comb begin
    in_word = (cnt == CntW'(N - 1)) ? (in_data_i & TopMask) : in_data_i;
    g_in    = rev_word(in_word, (cnt == '0) ? '0 : prev_q);  // word -1 of a is 0

    t_d     = t_q;
    fw_d    = fw_q;
    gw_d    = gw_q;
    mu_d    = mu_q;
    mv_d    = mv_q;
    mq_d    = mq_q;
    mr_d    = mr_q;
    cf_d    = cf_q;
    cg_d    = cg_q;
    cv_d    = cv_q;
    cr_d    = cr_q;
    pf_d    = pf_q;
    pg_d    = pg_q;
    v0_d    = v0_q;
    r0_d    = r0_q;
    prev_d  = prev_q;

    f_we = 1'b0;
    g_we = 1'b0;
    v_we = 1'b0;
    r_we = 1'b0;
    f_wa = AW'(cnt);
    g_wa = AW'(CntW'(N - 1) - cnt);
    v_wa = AW'(cnt);
    r_wa = AW'(cnt);
    f_wd = '0;
    g_wd = g_in;
    v_wd = '0;
    r_wd = '0;

    out_valid_o = 1'b0;
    out_last_o  = 1'b0;
    out_data_o  = rev_word(prev_q, xv);

    if (load) begin
      // f = 1 + x^R, g = a reversed, v = 0, r = x^Shift
      f_we = 1'b1;
      g_we = 1'b1;
      v_we = 1'b1;
      r_we = 1'b1;
      if (cnt == '0) f_wd[0] = 1'b1;
      if (cnt == CntW'(N - 1)) f_wd[Rem] = 1'b1;
      if (cnt == CntW'(Shift / W)) r_wd[Shift % W] = 1'b1;
      prev_d = in_word;
      if (cnt == CntW'(N - 1)) begin  // g's word 0: the first batch starts
        t_d     = '0;  // delta = 1
        fw_d    = K'(1);
        gw_d    = g_in[K-1:0];
        {mu_d, mv_d, mq_d, mr_d} = {(K+1)'(1), (K+1)'(0), (K+1)'(0), (K+1)'(1)};
      end
    end

    if (step) begin
      t_d     = t_after[st_swap];
      fw_d    = st_fw;
      gw_d    = st_gw;
      {mu_d, mv_d, mq_d, mr_d} = {st_u, st_v, st_q, st_r};
    end

    if (proc_pass) begin
      cf_d = sf[W+K-1:W];
      cg_d = sg[W+K-1:W];
      cv_d = sv[W+K-1:W];
      cr_d = sr[W+K-1:W];
      pf_d = af;
      pg_d = ag;
      // f, g: word j - 1 of the quotient by x^K
      f_we = !first;
      g_we = !first;
      f_wa = pprev;
      g_wa = pprev;
      f_wd = nf;
      g_wd = ng;
      if (win) begin  // the next batch's windows
        fw_d = nf[K-1:0];
        gw_d = ng[K-1:0];
      end
      // v, r: word j; word 0 waits for the wrap of the bits above R
      v_wa = AW'(pj);
      r_wa = AW'(pj);
      v_wd = av;
      r_wd = ar;
      v_we = !first;
      r_we = !first;
      if (first) begin
        v0_d = av;
        r0_d = ar;
      end
      if (top) begin
        v_wd = av & TopMask;
        r_wd = ar & TopMask;
        v0_d = v0_q ^ W'(ov);
        r0_d = r0_q ^ W'(orr);
      end
      if (flush) begin
        v_wa = '0;
        r_wa = '0;
        v_wd = v0_q;
        r_wd = r0_q;
      end
    end

    if (last_slot) begin  // zero for slot N; the next batch's steps add 1
      {mu_d, mv_d, mq_d, mr_d} = '0;
    end

    if (proc_out) begin
      // a^-1 = v reversed in R bits: word m from v's words N-1-m and N-2-m,
      // read in descending order (slot s reads word N-1-s, shows word s-1)
      prev_d      = xv;
      out_valid_o = !first;
      out_last_o  = flush;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      t_q     <= '0;
      fw_q    <= '0;
      gw_q    <= '0;
      mu_q    <= '0;
      mv_q    <= '0;
      mq_q    <= '0;
      mr_q    <= '0;
      cf_q    <= '0;
      cg_q    <= '0;
      cv_q    <= '0;
      cr_q    <= '0;
      pf_q    <= '0;
      pg_q    <= '0;
      v0_q    <= '0;
      r0_q    <= '0;
      prev_q  <= '0;
    end else begin
      t_q     <= t_d;
      fw_q    <= fw_d;
      gw_q    <= gw_d;
      mu_q    <= mu_d;
      mv_q    <= mv_d;
      mq_q    <= mq_d;
      mr_q    <= mr_d;
      cf_q    <= cf_d;
      cg_q    <= cg_d;
      cv_q    <= cv_d;
      cr_q    <= cr_d;
      pf_q    <= pf_d;
      pg_q    <= pg_d;
      v0_q    <= v0_d;
      r0_q    <= r0_d;
      prev_q  <= prev_d;
    end
  end

endmodule
