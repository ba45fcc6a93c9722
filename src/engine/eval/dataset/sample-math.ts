import { answerItems } from "./sample-items.ts";
import type { EvalItem } from "./item-schema.ts";

/** Twenty word problems with numeric answers, written for this project. */
export const SAMPLE_MATH: EvalItem[] = answerItems("math", "math", [
  [
    "A baker fills 14 trays with 18 rolls each and sells all but 25 rolls. How many rolls are sold?",
    "227",
  ],
  ["A cyclist rides 42 km in 1.75 hours. What is her average speed in km/h?", "24"],
  ["A shirt costs $40 and is discounted by 15%. What is the sale price in dollars?", "34"],
  ["Three friends split a bill of $87 equally. How many dollars does each pay?", "29"],
  [
    "A tank holds 360 litres and drains at 12 litres per minute. How many minutes until it is empty?",
    "30",
  ],
  ["The sum of two consecutive even numbers is 86. What is the larger number?", "44"],
  ["A rectangle is 9 cm wide and has an area of 117 square cm. What is its perimeter in cm?", "44"],
  ["A train leaves at 09:40 and arrives at 13:05. How many minutes does the trip take?", "205"],
  ["If 5 pencils cost $1.35, how many dollars do 12 pencils cost?", "3.24"],
  ["A class of 32 students has 3 boys for every 5 girls. How many girls are in the class?", "20"],
  ["A recipe uses 3/4 cup of sugar per batch. How many cups are needed for 6 batches?", "4.5"],
  ["A number is tripled and then 7 is subtracted, giving 38. What is the number?", "15"],
  ["A garden has 6 rows of 23 tulips and 4 rows of 17 daffodils. How many flowers in all?", "206"],
  [
    "A savings account grows from $800 to $868 in a year. What was the interest rate in percent?",
    "8.5",
  ],
  ["A bus carries 47 people. How many buses are needed for 300 people?", "7"],
  [
    "The average of four test scores is 82. Three of them are 75, 90 and 79. What is the fourth?",
    "84",
  ],
  ["A map scale is 1:25,000. How many km on the ground is 8 cm on the map?", "2"],
  [
    "A pump fills a pool in 6 hours and a second pump in 3 hours. How many hours do both take together?",
    "2",
  ],
  ["What fraction of an hour is 45 minutes? Give the answer as a fraction in lowest terms.", "3/4"],
  ["A square has a diagonal of length 10. What is its area?", "50"],
]);
