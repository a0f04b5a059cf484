// ML-KEM's samplers (FIPS 203) on Keccak-f[1600] (keccak_round of
// ip/keccak, RoundsPerCycle rounds unrolled):
//   op_i = OpNtt:  SampleNTT (algorithm 7): SHAKE128(seed_i || idx_i[7:0] ||
//                  idx_i[15:8]) read as 12-bit little-endian candidates, those
//                  below q kept, until 256 (rho || j || i: idx_i = {i, j});
//   op_i = OpCbd2, OpCbd3: SamplePolyCBD_eta (algorithm 8) on
//                  PRF_eta = SHAKE256(seed_i || idx_i[7:0]) (sigma || N), each
//                  coefficient from 2 eta bits, given mod q.
// seed_i (byte k in bits 8k+7:8k), idx_i and op_i are sampled with start_i.
// The 256 coefficients leave in order on a stream (coef_valid_o /
// coef_ready_i, coef_last_o on the last), each in [0, q).
//
// Squeezed lanes enter a bit buffer of 76 bits that gives one candidate (12,
// 4 or 6 bits) per cycle and takes the next lane when fewer than 12 bits
// would remain: the buffer drains while the sponge permutes. SampleNTT's time
// depends on how many candidates it rejects, a function of the public rho
// and (i, j) only. Cycle formulas: ../doc/mlkem_sampler.md.
module mlkem_sampler
  import mlkem_sampler_pkg::*;
#(
  parameter int unsigned RoundsPerCycle = 1,
  localparam int unsigned PermCycles    = keccak_pkg::NumRounds / RoundsPerCycle,
  localparam int unsigned RoundW        = (PermCycles > 1) ? $clog2(PermCycles) : 1
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          start_i,
  input  op_e           op_i,
  input  logic [255:0]  seed_i,
  input  logic [15:0]   idx_i,
  output logic          busy_o,
  output logic          coef_valid_o,
  input  logic          coef_ready_i,
  output logic [QW-1:0] coef_o,
  output logic          coef_last_o
);

  initial begin
    assert (keccak_pkg::NumRounds % RoundsPerCycle == 0)
      else $error("RoundsPerCycle must divide 24");
  end

  localparam int unsigned BufW  = 64 + QW;  // a lane on top of fewer than 12 bits
  localparam int unsigned FillW = $clog2(BufW + 1);
  localparam int unsigned CntW  = $clog2(N);

  logic              busy, load, perm, lane_valid, lane_take, done;
  logic [RoundW-1:0] rnd;
  localparam int unsigned Lanes = RateShake128 / 64;

  logic [Lanes-1:0]  lane;  // one-hot

  op_e               op_q, op_d;
  logic [1599:0]     s_q, s_d;
  logic [BufW-1:0]   buf_q, buf_d;
  logic [FillW-1:0]  fill_q, fill_d;
  logic [CntW-1:0]   cnt_q, cnt_d;

  mlkem_sampler_ctrl #(
    .PermCycles (PermCycles),
    .Lanes      (Lanes)
  ) u_ctrl (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .start_i      (start_i),
    .done_i       (done),
    .rate_last_i  (op_rate_last(op_q)),
    .lane_take_i  (lane_take),
    .busy_o       (busy),
    .load_o       (load),
    .perm_o       (perm),
    .rnd_o        (rnd),
    .lane_valid_o (lane_valid),
    .lane_o       (lane)
  );

  // ---------------------------------------------------------------------------
  // Permutation: RoundsPerCycle rounds in a chain
  // ---------------------------------------------------------------------------
  logic [1599:0] chain [RoundsPerCycle + 1];
  assign chain[0] = s_q;

  for (genvar k = 0; k < RoundsPerCycle; k++) begin : gen_round
    logic [63:0] rc;
    logic [RoundsPerCycle-1:0][63:0] rc_tab [PermCycles];
    for (genvar p = 0; p < PermCycles; p++) begin : gen_rc
      assign rc_tab[p][k] = keccak_pkg::RC[p * RoundsPerCycle + k];
    end
    assign rc = rc_tab[rnd][k];

    keccak_round u_round (
      .state_i (chain[k]),
      .rc_i    (rc),
      .state_o (chain[k + 1])
    );
  end

  always_comb begin
    s_d = s_q;
    if (load) begin
      s_d = op_init_state(op_i, seed_i, idx_i);
    end else if (perm) begin
      s_d = chain[RoundsPerCycle];
    end
  end

  // ---------------------------------------------------------------------------
  // Squeeze: the offered lane, the bit buffer and the coefficient stream
  // ---------------------------------------------------------------------------
  logic [63:0]      lane_data;
  logic [3:0]       bits;
  logic             have, accept, consume;
  logic [QW-1:0]    cand;
  logic [FillW-1:0] fill_ac;
  logic [BufW-1:0]  buf_ac;

  always_comb begin
    lane_data = '0;
    for (int unsigned i = 0; i < Lanes; i++) begin
      lane_data = lane_data | ({64{lane[i]}} & s_q[64*i +: 64]);
    end
  end

  assign bits    = op_bits(op_q);
  assign have    = busy && (fill_q >= FillW'(bits));
  assign cand    = buf_q[QW-1:0];
  assign accept  = (op_q != OpNtt) || (cand < QW'(Q));
  assign coef_o  = (op_q == OpNtt) ? cand : cbd_coef(buf_q[5:0], op_q == OpCbd3);
  assign coef_valid_o = have && accept;
  assign coef_last_o  = (cnt_q == CntW'(N - 1));
  assign consume = have && (!accept || coef_ready_i);
  assign done    = coef_valid_o && coef_ready_i && coef_last_o;
  assign busy_o  = busy;

  always_comb begin
    fill_ac = fill_q;
    buf_ac  = buf_q;
    if (consume) begin
      fill_ac = fill_q - FillW'(bits);
      unique case (op_q)
        OpNtt:   buf_ac = buf_q >> 12;
        OpCbd2:  buf_ac = buf_q >> 4;
        default: buf_ac = buf_q >> 6;
      endcase
    end
  end

  // a lane fits when fewer than 12 bits remain (fill_ac < 12: a 4-bit shift)
  assign lane_take = lane_valid && (fill_ac < FillW'(QW));

  always_comb begin
    op_d   = op_q;
    cnt_d  = cnt_q;
    buf_d  = buf_ac;
    fill_d = fill_ac;
    if (lane_take) begin
      buf_d  = buf_ac | (BufW'(lane_data) << fill_ac[3:0]);
      fill_d = fill_ac + FillW'(64);
    end
    if (coef_valid_o && coef_ready_i) begin
      cnt_d = cnt_q + 1'b1;
    end
    if (load) begin
      op_d   = op_i;
      cnt_d  = '0;
      buf_d  = '0;
      fill_d = '0;
    end
  end

  // no reset: the state is loaded when an operation starts
  always_ff @(posedge clk_i) begin
    s_q <= s_d;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      op_q   <= OpNtt;
      buf_q  <= '0;
      fill_q <= '0;
      cnt_q  <= '0;
    end else begin
      op_q   <= op_d;
      buf_q  <= buf_d;
      fill_q <= fill_d;
      cnt_q  <= cnt_d;
    end
  end

endmodule
