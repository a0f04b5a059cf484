// Level constants of the BGF decoder (bike-spec.md, libbike params.c): the
// threshold T(S) = max(floor((ThA + ThB S) / 10^8), ThMin), selected by R.
package bike_decoder_pkg;

  localparam longint unsigned ThScale = 64'd100000000;

  function automatic longint unsigned th_a(int unsigned r);
    return (r == 12323) ? 64'd1353000000 : (r == 24659) ? 64'd1525880000 : 64'd1787850000;
  endfunction

  function automatic longint unsigned th_b(int unsigned r);
    return (r == 12323) ? 64'd697220 : (r == 24659) ? 64'd526500 : 64'd402312;
  endfunction

  function automatic int unsigned th_min(int unsigned r);
    return (r == 12323) ? 36 : (r == 24659) ? 52 : 69;
  endfunction

  function automatic bit known_level(int unsigned r);
    return (r == 12323) || (r == 24659) || (r == 40973);
  endfunction

endpackage
