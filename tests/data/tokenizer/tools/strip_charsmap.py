#!/usr/bin/env python3
"""Removes normalizer_spec.precompiled_charsmap (field 3.2) from a sentencepiece .model,
keeping every other byte: strip_charsmap.py IN.model OUT.model. See README.md."""
import sys
def varint(b,i):
    v=0;s=0
    while True:
        c=b[i];i+=1;v|=(c&0x7f)<<s;s+=7
        if c<0x80: return v,i
def putv(v):
    o=bytearray()
    while v>=0x80: o.append((v&0x7f)|0x80); v>>=7
    o.append(v); return bytes(o)
def fields(b):
    i=0;out=[]
    while i<len(b):
        t,i=varint(b,i);f,w=t>>3,t&7;st=i
        if w==0: _,i=varint(b,i)
        elif w==2:
            l,i=varint(b,i);i+=l
        elif w==5: i+=4
        elif w==1: i+=8
        out.append((f,w,t,b[st:i]))
    return out
b=open(sys.argv[1],'rb').read()
o=bytearray()
for f,w,t,payload in fields(b):
    if f==3 and w==2:
        l,j=varint(payload,0); inner=payload[j:]
        ni=bytearray()
        for f2,w2,t2,p2 in fields(inner):
            if f2==2: continue  # precompiled_charsmap
            ni+=putv(t2)+p2
        o+=putv(t)+putv(len(ni))+ni
    else:
        o+=putv(t)+payload
open(sys.argv[2],'wb').write(o)
