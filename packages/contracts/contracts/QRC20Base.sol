// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title QRC20 base tier
/// @notice A fungible token with a fixed supply: the whole initial supply goes to one holder at
/// deployment, after which tokens can only be transferred.
contract QRC20Base is ERC20 {
    uint8 private immutable _decimals;

    error QRC20InvalidDecimals(uint8 decimals);

    /// @param initialSupply in base units (whole tokens × 10^decimals)
    constructor(
        string memory name_,
        string memory symbol_,
        uint8 decimals_,
        uint256 initialSupply,
        address supplyHolder
    ) ERC20(name_, symbol_) {
        if (decimals_ > 18) revert QRC20InvalidDecimals(decimals_);
        _decimals = decimals_;
        if (initialSupply > 0) _mint(supplyHolder, initialSupply);
    }

    function decimals() public view virtual override returns (uint8) {
        return _decimals;
    }
}
