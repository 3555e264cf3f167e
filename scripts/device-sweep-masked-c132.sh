source scripts/device-env.sh /tmp/dgemm-sweep-g4-cache
for sizes in drawn equal; do
timeout 270 python3 bench/sweep_grouped.py --layout masked --sizes $sizes --num-sms 132 --blocks 256x128,256x112,128x192,128x128 --out $OUT/sweep-masked-$sizes-c132.jsonl --iters 10 2>&1 | tee -a $OUT/sweep-c132.log
done
