// Control of the accelerator shell (doc/acc_shell.md): which operation runs,
// where the input stream goes (the core, zeros instead of it, or nowhere),
// whether the result is kept, and the error code of every bad use.
//
//   StIdle  --START, known op-->  StPass: input words to the core; each one
//                                 checked against TLAST at the op's length
//   StPass  --short (TLAST early) or ABORT-->  StPad: zeros to the core
//   StPass  --long (no TLAST on the last word)-->  StDrain: input dropped
//                                 until its TLAST (or an ABORT)
//   StPass/StPad/StDrain --input complete-->  StWait: until the core is done
//   StWait  --core done-->  StIdle
// After a short or long stream or an ABORT the core still runs to its end on
// a complete input (so every core ends), and its result is dropped (flush_o).
module acc_shell_fsm
  import acc_shell_reg_pkg::*;
#(
  parameter int unsigned CntW = 16
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // software (one-cycle pulses from CTRL)
  input  logic            start_i,
  input  logic            abort_i,
  // the core's answers for the operation in CTRL.OP (or the running one)
  input  logic            op_ok_i,
  input  logic [CntW-1:0] in_words_i,
  input  logic            core_done_i,
  input  logic            core_err_i,
  // input stream: the source's TVALID and TLAST, the core's ready
  input  logic            s_valid_i,
  input  logic            s_last_i,
  input  logic            core_ready_i,
  output logic            s_ready_o,      // AXI4-Stream TREADY
  output logic            core_valid_o,   // a word to the core
  output logic            core_zero_o,    // ... and it is zero (padding)
  // operation
  output logic            core_start_o,   // one cycle: the core starts op
  output logic            started_o,      // one cycle: counters restart
  output logic            busy_o,
  output logic            done_o,         // STATUS.DONE
  output logic            end_o,          // one cycle: an operation ended
  output logic            flush_o,        // drop the core's result words
  output logic [3:0]      err_o,          // STATUS.ERROR (acc_shell_err_e)
  output logic            err_event_o     // one cycle: an error was seen
);

  typedef enum logic [2:0] {
    StIdle,
    StPass,
    StPad,
    StDrain,
    StWait
  } state_e;

  localparam logic [3:0] ErrNone    = 4'(acc_shell_err_e__NONE);
  localparam logic [3:0] ErrBusy    = 4'(acc_shell_err_e__BUSY);
  localparam logic [3:0] ErrOp      = 4'(acc_shell_err_e__OP);
  localparam logic [3:0] ErrInShort = 4'(acc_shell_err_e__IN_SHORT);
  localparam logic [3:0] ErrInLong  = 4'(acc_shell_err_e__IN_LONG);
  localparam logic [3:0] ErrAbort   = 4'(acc_shell_err_e__ABORT);
  localparam logic [3:0] ErrCore    = 4'(acc_shell_err_e__CORE);

  state_e          state_q, state_d;
  logic [CntW-1:0] left_q, left_d;    // words still to give the core
  logic            done_q, done_d;
  logic            flush_q, flush_d;
  logic            fin_q, fin_d;      // the core is done (it may be, while draining)
  logic            bad_q, bad_d;      // ... and reported a failure
  logic [3:0]      err_q, err_d;

  logic            take, last_word, in_complete;
  logic [3:0]      event_code;

  // the word given to the core now is the operation's last (a count down
  // from the START's length: no arithmetic on the core's answer after START)
  assign last_word = (left_q == CntW'(1));

  always_comb begin
    state_d      = state_q;
    left_d       = left_q;
    done_d       = done_q;
    flush_d      = flush_q;
    fin_d        = fin_q || core_done_i;
    bad_d        = bad_q || (core_done_i && core_err_i);
    s_ready_o    = 1'b0;
    core_valid_o = 1'b0;
    core_zero_o  = 1'b0;
    core_start_o = 1'b0;
    started_o    = 1'b0;
    end_o        = 1'b0;
    // START while busy is refused (the running operation goes on); an event
    // of the operation in the same cycle (an ABORT written with it) wins
    event_code   = (start_i && state_q != StIdle) ? ErrBusy : ErrNone;
    take         = 1'b0;
    in_complete  = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (start_i && !op_ok_i) begin
          done_d     = 1'b1;
          end_o      = 1'b1;
          event_code = ErrOp;
        end else if (start_i) begin
          core_start_o = 1'b1;
          started_o    = 1'b1;
          state_d      = (in_words_i == '0) ? StWait : StPass;
          left_d       = in_words_i;
          done_d       = 1'b0;
          flush_d      = 1'b0;
          fin_d        = 1'b0;
          bad_d        = 1'b0;
        end
      end

      StPass: begin
        s_ready_o    = core_ready_i;
        core_valid_o = s_valid_i;
        take         = s_valid_i && core_ready_i;
        in_complete  = take && last_word;
        if (take) begin
          left_d = left_q - 1'b1;
        end
        if (take && last_word && !s_last_i) begin
          event_code = ErrInLong;
          flush_d    = 1'b1;
          state_d    = StDrain;
        end else if (in_complete) begin
          state_d = StWait;
        end else if (take && s_last_i) begin
          event_code = ErrInShort;
          flush_d    = 1'b1;
          state_d    = StPad;
        end
        if (abort_i) begin
          event_code = ErrAbort;
          flush_d    = 1'b1;
          state_d    = in_complete ? StWait : StPad;
        end
      end

      StPad: begin
        core_valid_o = 1'b1;
        core_zero_o  = 1'b1;
        if (core_ready_i) begin
          left_d = left_q - 1'b1;
          if (last_word) begin
            state_d = StWait;
          end
        end
      end

      StDrain: begin
        s_ready_o = 1'b1;
        if ((s_valid_i && s_last_i) || abort_i) begin
          state_d = StWait;
        end
      end

      StWait: begin
        if (fin_q || core_done_i) begin
          state_d = StIdle;
          done_d  = 1'b1;
          end_o   = 1'b1;
          if (bad_d) begin
            event_code = ErrCore;
          end
        end
      end

      default: state_d = StIdle;
    endcase

    // the first error since the last accepted START stays; a START refused
    // for its operation reports that operation alone
    err_d = started_o ? ErrNone : err_q;
    if (event_code == ErrOp || (event_code != ErrNone && err_q == ErrNone)) begin
      err_d = event_code;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      left_q  <= '0;
      done_q  <= 1'b0;
      flush_q <= 1'b0;
      fin_q   <= 1'b0;
      bad_q   <= 1'b0;
      err_q   <= ErrNone;
    end else begin
      state_q <= state_d;
      left_q  <= left_d;
      done_q  <= done_d;
      flush_q <= flush_d;
      fin_q   <= fin_d;
      bad_q   <= bad_d;
      err_q   <= err_d;
    end
  end

  assign busy_o      = (state_q != StIdle);
  assign done_o      = done_q;
  assign flush_o     = flush_q;
  assign err_o       = err_q;
  assign err_event_o = (event_code != ErrNone);

endmodule
