#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The spec of golden/handshake: TCP handshakes and CLC messages of
four connections, built by testsuite/lib/clc_messages.py from the layouts
of Linux 6.12 net/smc/smc_clc.h. Usage: handshake.spec.py TLIB > SPEC.

 frame  port   what
  1-2   40000  SYN and SYN-ACK, both with the SMC option
  3     40000  Proposal v2 SMC-D: ISM GID 0x1122334455667788, CHID
               0xfffe, UEIDs "SMC-EID-1" and "SMC-EID-2", SEID "SEID",
               one more GID 0xaabbccdd00112233 with CHID 0x0102
  4     40000  Accept v2 SMC-D from the peer: first contact, GID 0x99,
               DMB token 0x1234567890abcdef, CHID 0xfffe, EID "SMC-EID-1"
  5     40000  Confirm v2 SMC-D: GID 0x98, DMB token 0x77, EID "SMC-EID-1"
  6-7   40001  SYN with the SMC option, SYN-ACK without: TCP, no CLC
  8     40002  Decline v1 from the peer: 0x03030008 (SMC_CLC_DECL_NOUEID)
  9     40002  Decline v2: 0x04000000 (SMC_CLC_DECL_SYNCERR), out of sync,
               first v2 diagnosis 0x0303000b (SMC_CLC_DECL_MAXLINKERR)
 10     40002  Decline v2 with the code 0x0abc0000, which Linux lacks
 11     40003  Accept v2 SMC-R from the peer: first contact, QP 4660,
               alert token 0xabcdef12, EID "E-R"
 12     40003  Confirm v2 SMC-R: first contact, QP 22136, alert token
               0x13, EID "E-R"
"""
import sys

sys.path.insert(0, sys.argv[1])
from clc_messages import tcp, proposal, accept_smcd, accept_smcr, decline

PEER = "src=10.0.0.2 dst=10.0.0.1 sport=5201 dport=%d "
print("tcp flags=S smcopt=1")
print("tcp flags=SA smcopt=1 " + PEER % 40000)
print(tcp(proposal(0x1122334455667788, 0xfffe, [b"SMC-EID-1", b"SMC-EID-2"],
               b"SEID", [(0xaabbccdd00112233, 0x0102)])))
print(tcp(accept_smcd(2, 0x99, 0x1234567890abcdef, 0xfffe, b"SMC-EID-1",
                      True), rev=True))
print(tcp(accept_smcd(3, 0x98, 0x77, 0xfffe, b"SMC-EID-1", False)))
print("tcp flags=S smcopt=1 lport=40001")
print("tcp flags=SA smcopt=0 " + PEER % 40001)
print("tcp flags=PA %shex=%s" % (PEER % 40002, decline(0x03030008, ver=1).hex()))
print(tcp(decline(0x04000000, sync=True, diag2=(0x0303000b, 0, 0, 0)),
          extra="lport=40002 "))
print(tcp(decline(0x0abc0000), extra="lport=40002 "))
print("tcp flags=PA %shex=%s" % (PEER % 40003,
      accept_smcr(2, 4660, 0xabcdef12, b"E-R", True).hex()))
print(tcp(accept_smcr(3, 22136, 0x13, b"E-R", True), extra="lport=40003 "))
