// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title Quant (QNT) for the local chains
/// @notice A stand-in for the QNT ERC-20 on local development chains, where customers pay in QNT:
/// the same name, symbol and 18 decimals. Each holder gets `amountEach` at deployment; there is no
/// minting afterwards.
contract QNT is ERC20 {
    constructor(address[] memory holders, uint256 amountEach) ERC20("Quant", "QNT") {
        for (uint256 i = 0; i < holders.length; i++) {
            _mint(holders[i], amountEach);
        }
    }
}
